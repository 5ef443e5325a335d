#include "fabric/lldp_neighbor_table.h"

#include <algorithm>

namespace rocewatch {

bool SameFarEnd(const LldpFrame& a, const LldpFrame& b) {
  return a.chassis_id == b.chassis_id && a.port_id == b.port_id;
}

void LldpNeighborTable::Track(const std::string& netdev) { counters_[netdev]; }

void LldpNeighborTable::Forget(const std::string& netdev) {
  neighbors_.erase(netdev);
  counters_.erase(netdev);
  buckets_.erase(netdev);
}

bool LldpNeighborTable::Admit(Bucket& bucket, MonoTime now) const {
  if (!bucket.started) {
    bucket = Bucket{limits_.burst, now, true};
  } else if (now > bucket.refilled) {
    bucket.tokens = std::min(limits_.burst, bucket.tokens + ToSeconds(now - bucket.refilled) *
                                                                limits_.frames_per_second);
    bucket.refilled = now;
  }
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

LldpFrameOutcome LldpNeighborTable::Observe(const std::string& netdev,
                                            std::span<const uint8_t> bytes, MonoTime now) {
  LldpNetdevCounters& counters = counters_[netdev];
  ++counters.frames;
  if (!Admit(buckets_[netdev], now)) {
    ++counters.dropped;
    return LldpFrameOutcome::kRateLimited;
  }
  auto current = neighbors_.find(netdev);
  if (current != neighbors_.end() &&
      std::equal(bytes.begin(), bytes.end(), current->second.bytes.begin(),
                 current->second.bytes.end())) {
    current->second.last_seen = now;
    current->second.expires = now + std::chrono::seconds(current->second.frame.ttl_seconds);
    return LldpFrameOutcome::kRepeated;
  }
  StatusOr<LldpFrame> frame = ParseLldpFrame(bytes);
  if (!frame.ok()) {
    ++counters.invalid;
    counters.last_invalid_reason = frame.status().message();
    return LldpFrameOutcome::kInvalid;
  }
  bool same = current != neighbors_.end() && SameFarEnd(current->second.frame, frame.value());
  if (frame->ttl_seconds == 0) {
    if (same) neighbors_.erase(current);  // a shutdown of another sender leaves ours alone
    return LldpFrameOutcome::kShutdown;
  }
  LldpNeighbor neighbor;
  neighbor.first_seen = same ? current->second.first_seen : now;
  neighbor.last_seen = now;
  neighbor.expires = now + std::chrono::seconds(frame->ttl_seconds);
  neighbor.frame = std::move(frame).value();
  neighbor.bytes.assign(bytes.begin(), bytes.end());
  neighbors_[netdev] = std::move(neighbor);
  return LldpFrameOutcome::kAccepted;
}

bool LldpNeighborTable::Restore(const std::string& netdev, std::span<const uint8_t> bytes,
                                MonoTime last_seen, MonoTime now) {
  StatusOr<LldpFrame> frame = ParseLldpFrame(bytes);
  if (!frame.ok() || frame->ttl_seconds == 0) return false;
  const MonoTime expires = last_seen + std::chrono::seconds(frame->ttl_seconds);
  if (now >= expires) return false;
  LldpNeighbor neighbor;
  neighbor.first_seen = last_seen;
  neighbor.last_seen = last_seen;
  neighbor.expires = expires;
  neighbor.frame = std::move(frame).value();
  neighbor.bytes.assign(bytes.begin(), bytes.end());
  neighbors_[netdev] = std::move(neighbor);
  return true;
}

void LldpNeighborTable::CountKernelDrops(const std::string& netdev, uint64_t drops) {
  if (drops == 0) return;
  LldpNetdevCounters& counters = counters_[netdev];
  counters.frames += drops;
  counters.dropped += drops;
}

std::vector<std::string> LldpNeighborTable::Expire(MonoTime now) {
  std::vector<std::string> expired;
  for (auto it = neighbors_.begin(); it != neighbors_.end();) {
    if (now >= it->second.expires) {
      expired.push_back(it->first);
      it = neighbors_.erase(it);
    } else {
      ++it;
    }
  }
  return expired;
}

const LldpNeighbor* LldpNeighborTable::neighbor(const std::string& netdev) const {
  auto it = neighbors_.find(netdev);
  return it == neighbors_.end() ? nullptr : &it->second;
}

std::optional<MonoTime> LldpNeighborTable::NextExpiry() const {
  std::optional<MonoTime> next;
  for (const auto& [netdev, neighbor] : neighbors_)
    if (!next || neighbor.expires < *next) next = neighbor.expires;
  return next;
}

}  // namespace rocewatch
