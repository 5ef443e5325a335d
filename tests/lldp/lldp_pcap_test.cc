#include "lldp/lldp_pcap.h"

#include <gtest/gtest.h>

#include "lldp/lldp_frame.h"
#include "lldp/lldp_socket.h"
#include "support/lldp_frames.h"

namespace rocewatch {
namespace {

std::string Octets(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out += static_cast<char>(v);
  return out;
}

// A pcap global header in big-endian order (as a big-endian host's tcpdump writes it).
std::string BigEndianHeader(uint32_t magic, uint32_t link_type) {
  auto be32 = [](uint32_t v) {
    return Octets({static_cast<int>(v >> 24), static_cast<int>((v >> 16) & 0xff),
                   static_cast<int>((v >> 8) & 0xff), static_cast<int>(v & 0xff)});
  };
  return be32(magic) + Octets({0, 2, 0, 4}) + be32(0) + be32(0) + be32(65535) + be32(link_type);
}

std::string BigEndianRecord(const std::string& frame) {
  auto be32 = [](uint32_t v) {
    return Octets({static_cast<int>(v >> 24), static_cast<int>((v >> 16) & 0xff),
                   static_cast<int>((v >> 8) & 0xff), static_cast<int>(v & 0xff)});
  };
  return be32(1764806400) + be32(5) + be32(frame.size()) + be32(frame.size()) + frame;
}

std::string AsText(const std::vector<uint8_t>& frame) { return {frame.begin(), frame.end()}; }

TEST(LldpPcapTest, WhatIsWrittenReadsBackAndParses) {
  std::vector<uint8_t> frame = LldpFrameBuilder::Leaf(7, 3).Build();
  std::string file = WriteLldpPcap(frame, 1764806400.25);
  EXPECT_EQ(file.size(), 24u + 16u + frame.size());
  StatusOr<std::vector<std::vector<uint8_t>>> frames = ReadLldpPcap(file);
  ASSERT_TRUE(frames.ok()) << frames.status().ToString();
  ASSERT_EQ(frames->size(), 1u);
  EXPECT_EQ((*frames)[0], frame);
  StatusOr<LldpFrame> parsed = ParseLldpFrame((*frames)[0]);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->system_name, "leaf-07");
}

TEST(LldpPcapTest, ReadsBigEndianAndNanosecondFilesAndSkipsOtherFrames) {
  std::vector<uint8_t> lldp = LldpFrameBuilder::Leaf(2, 9).Build();
  std::string ipv4 = std::string(12, '\x01') + Octets({0x08, 0x00}) + std::string(40, 'x');
  std::string tagged = std::string(12, '\x02') + Octets({0x81, 0x00, 0, 5, 0x88, 0xcc}) + "x";
  for (uint32_t magic : {0xa1b2c3d4u, 0xa1b23c4du}) {
    std::string file = BigEndianHeader(magic, 1) + BigEndianRecord(ipv4) +
                       BigEndianRecord(AsText(lldp)) + BigEndianRecord(tagged) +
                       BigEndianRecord("short");
    StatusOr<std::vector<std::vector<uint8_t>>> frames = ReadLldpPcap(file);
    ASSERT_TRUE(frames.ok()) << frames.status().ToString();
    ASSERT_EQ(frames->size(), 1u) << "only untagged ethertype 0x88cc is LLDP";
    EXPECT_EQ((*frames)[0], lldp);
  }
}

TEST(LldpPcapTest, ALongRecordIsCutAsTheSocketCutsIt) {
  std::vector<uint8_t> huge = LldpFrameBuilder::Leaf(1, 1).Build();
  huge.resize(3000, 0xab);
  StatusOr<std::vector<std::vector<uint8_t>>> frames = ReadLldpPcap(WriteLldpPcap(huge, 1));
  ASSERT_TRUE(frames.ok());
  EXPECT_EQ((*frames)[0].size(), kLldpMaxFrameBytes);
}

TEST(LldpPcapTest, HostileFilesAreRefusedWithTheReason) {
  std::string good = WriteLldpPcap(LldpFrameBuilder::Leaf(1, 1).Build(), 1);
  auto error = [](const std::string& file) {
    StatusOr<std::vector<std::vector<uint8_t>>> frames = ReadLldpPcap(file);
    return frames.ok() ? "read" : frames.status().message();
  };
  EXPECT_EQ(error(""), "pcap: shorter than its 24-byte header");
  EXPECT_EQ(error(good.substr(0, 23)), "pcap: shorter than its 24-byte header");
  EXPECT_EQ(error(std::string("\x0a\x0d\x0d\x0a", 4) + std::string(40, '\0')),
            "pcap: not a pcap file (pcapng is not read: write with tcpdump -w, or convert with "
            "editcap -F pcap)");
  EXPECT_EQ(error(BigEndianHeader(0xa1b2c3d4, 113)),
            "pcap: link type 113, not Ethernet (capture on the netdev itself, tcpdump -i "
            "<netdev>, not -i any)");
  EXPECT_EQ(error(good.substr(0, 30)), "pcap: ends inside a record header");
  EXPECT_EQ(error(good.substr(0, good.size() - 1)), "pcap: ends inside a record");
  // A record that claims more than the file holds, even 4 GiB.
  std::string lying = BigEndianHeader(0xa1b2c3d4, 1) + Octets({0, 0, 0, 1, 0, 0, 0, 0}) +
                      Octets({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}) + "abc";
  EXPECT_EQ(error(lying), "pcap: ends inside a record");
  EXPECT_EQ(error(std::string(kMaxLldpPcapBytes + 1, '\0')), "pcap: larger than 1048576 bytes");
  std::string many = BigEndianHeader(0xa1b2c3d4, 1);
  for (size_t i = 0; i <= kMaxLldpPcapRecords; ++i) many += BigEndianRecord("");
  EXPECT_EQ(error(many), "pcap: more than 4096 records");
  EXPECT_EQ(error(BigEndianHeader(0xa1b2c3d4, 1)), "read") << "no record: no frame, no error";
}

}  // namespace
}  // namespace rocewatch
