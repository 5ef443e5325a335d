#include "gid_drift/gid_drift_detector.h"

#include <algorithm>
#include <set>

namespace rocewatch {

const char* GidChangeKindName(GidChangeKind kind) {
  switch (kind) {
    case GidChangeKind::kAdded:
      return "added";
    case GidChangeKind::kRemoved:
      return "removed";
    case GidChangeKind::kMoved:
      return "moved";
  }
  return "added";
}

size_t GidObservation::drifts() const {
  return static_cast<size_t>(std::count_if(changes.begin(), changes.end(), [](const GidChange& c) {
    return c.kind == GidChangeKind::kMoved;
  }));
}

namespace {

std::vector<GidEntry> SortedByIndex(std::vector<GidEntry> entries) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const GidEntry& a, const GidEntry& b) { return a.index < b.index; });
  return entries;
}

// Identity -> its lowest index in `entries` (ascending index).
std::map<GidIdentity, const GidEntry*> ByIdentity(const std::vector<GidEntry>& entries) {
  std::map<GidIdentity, const GidEntry*> out;
  for (const GidEntry& e : entries) out.emplace(IdentityOf(e), &e);
  return out;
}

void ForgetOldestDeparted(KnownGidPort& known, size_t bound) {
  while (known.departed.size() > bound) {
    auto oldest = std::min_element(
        known.departed.begin(), known.departed.end(),
        [](const auto& a, const auto& b) { return a.second.order < b.second.order; });
    known.departed.erase(oldest);
  }
}

}  // namespace

std::vector<GidChange> DiffGidTable(const std::string& device, uint32_t port,
                                    const std::vector<GidEntry>& now_unsorted, KnownGidPort& known,
                                    uint64_t& next_departure) {
  std::vector<GidEntry> now = SortedByIndex(now_unsorted);
  std::map<GidIdentity, const GidEntry*> before = ByIdentity(known.entries);
  std::map<GidIdentity, const GidEntry*> after = ByIdentity(now);
  std::vector<GidChange> changes;

  for (const GidEntry& e : now) {
    GidIdentity id = IdentityOf(e);
    if (after.at(id) != &e) continue;  // a duplicate identity: counted at its lowest index
    std::optional<uint32_t> last_index;
    if (auto it = before.find(id); it != before.end()) {
      last_index = it->second->index;
    } else if (auto gone = known.departed.find(id); gone != known.departed.end()) {
      last_index = gone->second.index;
      known.departed.erase(gone);
    }
    if (last_index && *last_index == e.index) {
      if (before.count(id) != 0) continue;                                          // unchanged
      changes.push_back({GidChangeKind::kAdded, device, e, *last_index, e.index});  // returned
    } else if (last_index) {
      changes.push_back({GidChangeKind::kMoved, device, e, *last_index, e.index});
    } else {
      changes.push_back({GidChangeKind::kAdded, device, e, e.index, e.index});
    }
  }
  for (const GidEntry& e : known.entries) {
    GidIdentity id = IdentityOf(e);
    if (before.at(id) != &e || after.count(id) != 0) continue;
    changes.push_back({GidChangeKind::kRemoved, device, e, e.index, e.index});
    known.departed[id] = {e.index, next_departure++};
  }
  for (GidChange& c : changes) c.entry.port = port;
  known.entries = std::move(now);
  ForgetOldestDeparted(known, GidDriftDetector::kMaxDepartedPerPort);
  return changes;
}

std::vector<uint32_t> FindGidHoles(const std::vector<GidEntry>& entries) {
  std::optional<uint32_t> highest_non_default;
  for (const GidEntry& e : entries)
    if (!IsLinkLocalGid(e.gid) && (!highest_non_default || e.index > *highest_non_default))
      highest_non_default = e.index;
  std::vector<uint32_t> holes;
  if (!highest_non_default) return holes;
  std::vector<bool> used(*highest_non_default + 1, false);
  for (const GidEntry& e : entries)
    if (e.index <= *highest_non_default) used[e.index] = true;
  for (uint32_t i = 0; i < *highest_non_default; ++i)
    if (!used[i]) holes.push_back(i);
  return holes;
}

std::optional<GidIndexMismatch> EvaluateIndexMismatch(const GidPortTable& table,
                                                      uint32_t expected_index) {
  if (!table.roce) return std::nullopt;
  GidIndexMismatch result;
  result.device = table.device;
  result.port = table.port;
  result.netdev = table.netdev;
  for (const GidEntry& e : table.entries) {
    if (e.index != expected_index) continue;
    result.at_index = e;
    break;
  }
  bool holds_v2_ipv4 = result.at_index && result.at_index->type == GidType::kRoceV2 &&
                       IsIpv4MappedGid(result.at_index->gid);
  result.mismatch = !holds_v2_ipv4;
  if (holds_v2_ipv4) {
    result.netdev = result.at_index->netdev;
  } else if (result.netdev.empty()) {
    for (const GidEntry& e : table.entries) {
      if (e.type == GidType::kRoceV2 && IsIpv4MappedGid(e.gid) && !e.netdev.empty()) {
        result.netdev = e.netdev;
        break;
      }
    }
  }
  return result;
}

GidObservation GidDriftDetector::Observe(const std::vector<GidPortTable>& tables,
                                         double unix_seconds) {
  GidObservation observation;
  std::set<GidDriftKey> moved_now;  // keys whose last_move this observation has set
  for (const GidPortTable& table : tables) {
    GidPortKey key{table.device, table.port};
    KnownGidPort& known = state_.tables[key];
    std::vector<GidChange> changes =
        DiffGidTable(table.device, table.port, table.entries, known, state_.next_departure);
    for (GidChange& change : changes) {
      if (change.kind == GidChangeKind::kMoved) {
        GidDriftKey drift_key{table.device, table.port, change.entry.netdev};
        GidDriftCounter& counter = state_.counters[drift_key];
        ++counter.events;
        counter.last_drift_unix_seconds = unix_seconds;
        if (moved_now.insert(drift_key).second || change.entry.type == GidType::kRoceV2)
          counter.last_move =
              GidLastMove{change.entry.gid, change.entry.type, change.old_index, change.new_index};
      }
      observation.changes.push_back(std::move(change));
    }
    for (uint32_t index : FindGidHoles(known.entries))
      observation.holes.push_back({table.device, table.port, index});
  }
  return observation;
}

}  // namespace rocewatch
