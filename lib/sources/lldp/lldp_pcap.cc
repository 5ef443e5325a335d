#include "lldp/lldp_pcap.h"

#include <cmath>
#include <cstring>

#include "lldp/lldp_socket.h"

namespace rocewatch {
namespace {

constexpr uint32_t kMicroMagic = 0xa1b2c3d4;
constexpr uint32_t kNanoMagic = 0xa1b23c4d;
constexpr uint32_t kLinkTypeEthernet = 1;
constexpr size_t kGlobalHeaderBytes = 24;
constexpr size_t kRecordHeaderBytes = 16;
constexpr uint32_t kSnapLength = 65535;

uint32_t Swap(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
}

uint32_t Load(std::string_view bytes, size_t at, bool swapped) {
  uint32_t v;
  std::memcpy(&v, bytes.data() + at, sizeof(v));
  return swapped ? Swap(v) : v;
}

template <typename T>
void Store(std::string& out, T v) {
  char raw[sizeof(v)];
  std::memcpy(raw, &v, sizeof(v));
  out.append(raw, sizeof(raw));
}

Status Corrupt(const std::string& why) { return Status::Corrupt("pcap: " + why); }

}  // namespace

StatusOr<std::vector<std::vector<uint8_t>>> ReadLldpPcap(std::string_view bytes) {
  if (bytes.size() > kMaxLldpPcapBytes)
    return Corrupt("larger than " + std::to_string(kMaxLldpPcapBytes) + " bytes");
  if (bytes.size() < kGlobalHeaderBytes) return Corrupt("shorter than its 24-byte header");
  const uint32_t magic = Load(bytes, 0, false);
  bool swapped;
  if (magic == kMicroMagic || magic == kNanoMagic) {
    swapped = false;
  } else if (Swap(magic) == kMicroMagic || Swap(magic) == kNanoMagic) {
    swapped = true;
  } else {
    return Corrupt(
        "not a pcap file (pcapng is not read: write with tcpdump -w, or convert "
        "with editcap -F pcap)");
  }
  const uint32_t link_type = Load(bytes, 20, swapped) & 0x0fffffff;
  if (link_type != kLinkTypeEthernet)
    return Corrupt("link type " + std::to_string(link_type) +
                   ", not Ethernet (capture on the netdev itself, tcpdump -i <netdev>, not -i "
                   "any)");
  std::vector<std::vector<uint8_t>> frames;
  size_t at = kGlobalHeaderBytes;
  for (size_t records = 0; at < bytes.size(); ++records) {
    if (records == kMaxLldpPcapRecords)
      return Corrupt("more than " + std::to_string(kMaxLldpPcapRecords) + " records");
    if (bytes.size() - at < kRecordHeaderBytes) return Corrupt("ends inside a record header");
    const uint32_t captured = Load(bytes, at + 8, swapped);
    at += kRecordHeaderBytes;
    if (captured > bytes.size() - at) return Corrupt("ends inside a record");
    std::string_view frame = bytes.substr(at, captured);
    at += captured;
    if (frame.size() < 14 || static_cast<uint8_t>(frame[12]) != 0x88 ||
        static_cast<uint8_t>(frame[13]) != 0xcc)
      continue;
    frame = frame.substr(0, kLldpMaxFrameBytes);
    frames.emplace_back(frame.begin(), frame.end());
  }
  return frames;
}

std::string WriteLldpPcap(const std::vector<uint8_t>& frame, double unix_seconds) {
  std::string out;
  Store(out, kMicroMagic);
  Store<uint16_t>(out, 2);  // version 2.4
  Store<uint16_t>(out, 4);
  Store<uint32_t>(out, 0);  // thiszone
  Store<uint32_t>(out, 0);  // sigfigs
  Store(out, kSnapLength);
  Store(out, kLinkTypeEthernet);
  const double seconds = std::isfinite(unix_seconds) && unix_seconds > 0 ? unix_seconds : 0;
  const auto whole = static_cast<uint32_t>(seconds);
  Store(out, whole);
  Store(out, static_cast<uint32_t>((seconds - whole) * 1e6));
  const auto length = static_cast<uint32_t>(frame.size());
  Store(out, length);
  Store(out, length);
  out.append(reinterpret_cast<const char*>(frame.data()), frame.size());
  return out;
}

}  // namespace rocewatch
