#pragma once
// Each rail's LLDP neighbor, from the frames its netdev received: pure (frames and times in, the
// table out; no clock reads, no I/O). One neighbor per netdev, the sender of the newest valid
// frame; it expires when its TTL has passed without a new frame, and goes at once on a TTL of 0
// (the sender is shutting down). Each netdev has a rate cap (a token bucket): frames beyond it are
// counted and dropped before they are parsed, so a flood costs a counter increment per frame and
// never grows the table (its size is the number of netdevs tracked).

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/clock.h"
#include "lldp/lldp_frame.h"

namespace rocewatch {

struct LldpLimits {
  // Sustained frames per second accepted per netdev, and the burst above it. LLDP agents send one
  // frame every 30 s (fast start: 1 s for a few frames); a segment with a few agents stays far
  // below this.
  double frames_per_second = 10;
  double burst = 20;
};

struct LldpNeighbor {
  LldpFrame frame;
  std::vector<uint8_t> bytes;  // the frame as received: a byte-identical repeat is not parsed again
  MonoTime first_seen{};       // the first frame of this chassis and port on this netdev
  MonoTime last_seen{};
  MonoTime expires{};  // last_seen + the frame's TTL
};

struct LldpNetdevCounters {
  uint64_t frames = 0;   // every frame received (accepted, invalid or dropped)
  uint64_t invalid = 0;  // frames that did not parse
  uint64_t dropped = 0;  // beyond the rate cap, or dropped by the kernel (full receive queue)
  std::string last_invalid_reason;
};

// kAccepted: a new neighbor, or new content from it; kRepeated: the current neighbor's frame again,
// byte for byte (switches repeat theirs every 30 s): its TTL restarts, nothing else changes.
enum class LldpFrameOutcome { kAccepted, kRepeated, kInvalid, kRateLimited, kShutdown };

class LldpNeighborTable {
 public:
  explicit LldpNeighborTable(LldpLimits limits = {}) : limits_(limits) {}

  // Starts counting for `netdev` (its counters exist, at 0, from now on).
  void Track(const std::string& netdev);
  // Forgets the netdev: its neighbor, counters and rate state.
  void Forget(const std::string& netdev);

  // One Ethernet frame received on `netdev` at `now`. Tracks the netdev if needed.
  LldpFrameOutcome Observe(const std::string& netdev, std::span<const uint8_t> frame, MonoTime now);
  // A neighbor known from before a restart: `bytes` as received, its last frame at `last_seen`
  // (earlier than any frame still to come). It is the current neighbor until its TTL, counted
  // from `last_seen`, passes. Counts no frame. Returns false (and changes nothing) for bytes that
  // do not parse, a TTL of 0 or a TTL already past at `now`.
  bool Restore(const std::string& netdev, std::span<const uint8_t> bytes, MonoTime last_seen,
               MonoTime now);
  // Frames the kernel dropped before they were read.
  void CountKernelDrops(const std::string& netdev, uint64_t drops);
  // Removes the neighbors whose TTL has passed at `now`; returns their netdevs.
  std::vector<std::string> Expire(MonoTime now);

  // The current neighbor of `netdev`, or null.
  const LldpNeighbor* neighbor(const std::string& netdev) const;
  const std::map<std::string, LldpNeighbor>& neighbors() const { return neighbors_; }
  const std::map<std::string, LldpNetdevCounters>& counters() const { return counters_; }
  // The earliest expiry of a neighbor, for a timer; nullopt with no neighbor.
  std::optional<MonoTime> NextExpiry() const;

 private:
  struct Bucket {
    double tokens = 0;
    MonoTime refilled{};
    bool started = false;
  };
  bool Admit(Bucket& bucket, MonoTime now) const;

  LldpLimits limits_;
  std::map<std::string, LldpNeighbor> neighbors_;
  std::map<std::string, LldpNetdevCounters> counters_;
  std::map<std::string, Bucket> buckets_;
};

// True when both frames come from the same chassis and port (the same far end).
bool SameFarEnd(const LldpFrame& a, const LldpFrame& b);

}  // namespace rocewatch
