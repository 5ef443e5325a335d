#pragma once
// GID drift: a GID (value, type, netdev) seen at an index other than the one it last held. The
// kernel re-adds a GID whose old slot is still referenced (pending delete, held by live QPs) at the
// next free index; NCCL keeps using the old index and the job's collectives collapse. The index is
// never part of a GID's identity here (see docs/design.md, "GID identity").
//
// Pure: tables and a timestamp in, changes and state out. No I/O, no clock, no logging. The state
// (known tables and drift counters) can be saved and restored (gid_drift/gid_state_store.h), so
// that a GID that moved while the daemon was down still counts as drift after a restart.

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/gid.h"

namespace rocewatch {

struct GidPortKey {
  std::string device;
  uint32_t port = 0;
  auto operator<=>(const GidPortKey&) const = default;
};

// What is remembered about one port's GID table.
struct KnownGidPort {
  // The last table read: valid entries, ascending index.
  std::vector<GidEntry> entries;
  // GIDs no longer in the table, with the index they last held: one that returns at another index
  // is a drift even if a snapshot saw it absent in between (the NetworkManager flap: removed while
  // carrier is down, re-added higher when it returns). `order` ages them out past a bound.
  struct Departed {
    uint32_t index = 0;
    uint64_t order = 0;
    bool operator==(const Departed&) const = default;
  };
  std::map<GidIdentity, Departed> departed;
  bool operator==(const KnownGidPort&) const = default;
};
using KnownGidTables = std::map<GidPortKey, KnownGidPort>;

// rocewatch_gid_drift_events_total / rocewatch_gid_last_drift_timestamp_seconds, per
// (device, port, netdev) where netdev is the moved GID's netdev.
struct GidDriftKey {
  std::string device;
  uint32_t port = 0;
  std::string netdev;
  auto operator<=>(const GidDriftKey&) const = default;
};
// The last move of a drift key: what an engineer needs to fix the job (old and new index). Of
// the moves one observation saw, the RoCE v2 one (what NCCL uses) is kept.
struct GidLastMove {
  std::string gid;
  GidType type = GidType::kUnknown;
  uint32_t old_index = 0;
  uint32_t new_index = 0;
  bool operator==(const GidLastMove&) const = default;
};
struct GidDriftCounter {
  uint64_t events = 0;
  double last_drift_unix_seconds = 0;    // 0: never
  std::optional<GidLastMove> last_move;  // unknown for drifts restored from an older state file
  bool operator==(const GidDriftCounter&) const = default;
};
using GidDriftCounters = std::map<GidDriftKey, GidDriftCounter>;

// Everything the detector knows; what the state file holds.
struct GidDriftState {
  KnownGidTables tables;
  GidDriftCounters counters;
  uint64_t next_departure = 0;  // the next KnownGidPort::Departed::order
  bool operator==(const GidDriftState&) const = default;
};

// One port's table as a snapshot read it.
struct GidPortTable {
  std::string device;
  uint32_t port = 0;
  bool roce = true;    // link layer Ethernet; index mismatch is evaluated for RoCE ports only
  std::string netdev;  // the port's own netdev (for labels when no GID names one); may be empty
  std::vector<GidEntry> entries;  // valid entries, any order
};

enum class GidChangeKind { kAdded, kRemoved, kMoved };
const char* GidChangeKindName(GidChangeKind kind);

struct GidChange {
  GidChangeKind kind = GidChangeKind::kAdded;
  std::string device;
  // The entry now (added, moved; its index is new_index) or as last seen (removed).
  GidEntry entry;
  uint32_t old_index = 0;  // moved, removed
  uint32_t new_index = 0;  // moved, added
};

// An empty slot below a non-default GID: the slot is most likely still referenced (pending
// delete) after that GID moved up. Default GIDs are the link-local fe80::/64 ones.
struct GidHole {
  std::string device;
  uint32_t port = 0;
  uint32_t index = 0;
  bool operator==(const GidHole&) const = default;
};

struct GidObservation {
  std::vector<GidChange>
      changes;  // per port in input order, moved/added by new index, then removed
  std::vector<GidHole> holes;
  size_t drifts() const;  // changes of kind kMoved
};

// rocewatch_gid_index_mismatch for one port: 1 if `expected_index` does not hold a RoCE v2
// IPv4-mapped GID.
struct GidIndexMismatch {
  std::string device;
  uint32_t port = 0;
  std::string netdev;  // of the GID at the index when it matches, else the port's netdev
  bool mismatch = false;
  std::optional<GidEntry> at_index;  // what the index holds, if valid
};

// Compares one port's new entries with what was known. Updates `known` (entries and departed).
// Identities that appear more than once in a table count at their lowest index.
std::vector<GidChange> DiffGidTable(const std::string& device, uint32_t port,
                                    const std::vector<GidEntry>& now, KnownGidPort& known,
                                    uint64_t& next_departure);

// Empty slots below the highest non-link-local GID of the entries.
std::vector<uint32_t> FindGidHoles(const std::vector<GidEntry>& entries);

// nullopt for a non-RoCE port.
std::optional<GidIndexMismatch> EvaluateIndexMismatch(const GidPortTable& table,
                                                      uint32_t expected_index);

class GidDriftDetector {
 public:
  // Departed identities remembered per port, beyond which the oldest are forgotten.
  static constexpr size_t kMaxDepartedPerPort = 1024;

  GidDriftDetector() = default;
  explicit GidDriftDetector(GidDriftState restored) : state_(std::move(restored)) {}

  // Diffs each given port with its known table, counts moves as drift at `unix_seconds`.
  // A port absent from `tables` keeps its known table: a failed read is not an empty table. A port
  // seen for the first time is a baseline: its entries are "added", never drift.
  GidObservation Observe(const std::vector<GidPortTable>& tables, double unix_seconds);

  const GidDriftState& state() const { return state_; }

 private:
  GidDriftState state_;
};

}  // namespace rocewatch
