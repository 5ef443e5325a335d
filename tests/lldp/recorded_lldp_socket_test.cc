#include "lldp/recorded_lldp_socket.h"

#include <gtest/gtest.h>

#include "lldp/lldp_pcap.h"
#include "support/fake_clock.h"
#include "support/fake_file_system.h"
#include "support/lldp_frames.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

TEST(RecordedLldpSocketTest, ReplaysTheLastFrameAtOnceAndThenEveryInterval) {
  FakeFileSystem fs;
  FakeClock clock;
  std::vector<uint8_t> first = LldpFrameBuilder::Leaf(1, 1).Build();
  std::vector<uint8_t> last = LldpFrameBuilder::Leaf(2, 2).Build();
  std::string file = WriteLldpPcap(first, 1);
  file += WriteLldpPcap(last, 2).substr(24);  // a second record
  fs.AddFile("/bundle/rocewatch/lldp/rnic0.pcap", file);
  StatusOr<std::unique_ptr<LldpSocket>> socket =
      RecordedLldpSocket::Open(fs, LldpRecordingPath("/bundle", "rnic0"), clock, seconds(30));
  ASSERT_TRUE(socket.ok()) << socket.status().ToString();
  EXPECT_EQ((*socket)->fd(), -1);
  StatusOr<LldpReceived> r = (*socket)->Read(64);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->frames.size(), 1u);
  EXPECT_EQ(r->frames[0], last);
  clock.Advance(seconds(29));
  EXPECT_TRUE((*socket)->Read(64)->frames.empty());
  clock.Advance(seconds(1));
  EXPECT_EQ((*socket)->Read(64)->frames.size(), 1u);
}

TEST(RecordedLldpSocketTest, NoRecordingIsNotFoundABrokenOneIsCorrupt) {
  FakeFileSystem fs;
  FakeClock clock;
  EXPECT_EQ(RecordedLldpSocket::Open(fs, "/b/rocewatch/lldp/x.pcap", clock).status().code(),
            StatusCode::kNotFound);
  fs.AddFile("/b/rocewatch/lldp/x.pcap", "not pcap at all, but long enough for a header");
  StatusOr<std::unique_ptr<LldpSocket>> broken =
      RecordedLldpSocket::Open(fs, "/b/rocewatch/lldp/x.pcap", clock);
  EXPECT_EQ(broken.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(broken.status().message().find("/b/rocewatch/lldp/x.pcap: pcap: not a pcap file"),
            std::string::npos)
      << broken.status().message();
  std::vector<uint8_t> ipv4(60, 0);
  ipv4[12] = 0x08;
  fs.AddFile("/b/rocewatch/lldp/x.pcap", WriteLldpPcap(ipv4, 1));
  EXPECT_EQ(RecordedLldpSocket::Open(fs, "/b/rocewatch/lldp/x.pcap", clock).status().message(),
            "/b/rocewatch/lldp/x.pcap: pcap: no LLDP frame in it");
}

TEST(RecordedLldpSocketTest, RecordingsFirstFallsBackToTheLiveSocketOnlyWithoutARecording) {
  FakeFileSystem fs;
  FakeClock clock;
  fs.AddFile("/h/rocewatch/lldp/rec0.pcap", WriteLldpPcap(LldpFrameBuilder::Leaf(1, 1).Build(), 1));
  fs.AddFile("/h/rocewatch/lldp/bad0.pcap", "garbage");
  std::vector<std::string> live_opened;
  LldpSocketOpener live = [&](const std::string& netdev) -> StatusOr<std::unique_ptr<LldpSocket>> {
    live_opened.push_back(netdev);
    return Status::PermissionDenied("no CAP_NET_RAW");
  };
  LldpSocketOpener open = RecordingsFirst(live, fs, clock, "/h");
  EXPECT_TRUE(open("rec0").ok());
  EXPECT_EQ(open("bad0").status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(open("live0").status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(live_opened, std::vector<std::string>{"live0"});
  EXPECT_EQ(RecordingsFirst(nullptr, fs, clock, "/h")("live0").status().code(),
            StatusCode::kUnavailable);
}

// On the live host nothing is recorded: the live socket is opened without a look for a file.
TEST(RecordedLldpSocketTest, TheLiveHostOpensTheLiveSocketWithoutLookingForARecording) {
  FakeFileSystem fs;
  FakeClock clock;
  fs.AddFile("/rocewatch/lldp/rec0.pcap", WriteLldpPcap(LldpFrameBuilder::Leaf(1, 1).Build(), 1));
  int live_opened = 0;
  LldpSocketOpener live = [&](const std::string&) -> StatusOr<std::unique_ptr<LldpSocket>> {
    ++live_opened;
    return Status::PermissionDenied("no CAP_NET_RAW");
  };
  EXPECT_EQ(RecordingsFirst(live, fs, clock, "/")("rec0").status().code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(live_opened, 1);
  EXPECT_EQ(fs.ReadCount("/rocewatch/lldp/rec0.pcap"), 0u);
}

}  // namespace
}  // namespace rocewatch
