#pragma once
// The open incidents a restarted daemon judges again, in the state file's vocabulary: per RNIC
// netdev its addresses missing after a flap and the policy rules its addresses had; per rail its
// traffic state, baseline and consumers, its last LLDP far end, its link-quality and PFC-storm
// verdicts; every RDMA port seen on this boot and since when a missing one is missing; the
// first-seen time of every open finding. Times are Unix seconds: the file outlives
// the process, whose monotonic clock the detectors use. Plain values: each feature provides its
// part on the node state (component/node_state.h) in this form and resumes from it; the state
// file (gid_drift/incident_state.h) keeps them.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/netdev.h"
#include "model/policy_rule.h"
#include "model/port_key.h"
#include "model/rail_consumer.h"
#include "model/traffic_state.h"

namespace rocewatch {

struct PersistedNetdevIncidents {
  std::map<IpAddress, double> missing_addresses;  // -> missing since
  std::map<IpAddress, std::set<PolicyRule>> expected_rules;
  std::set<PolicyRule> missing_rules;
  bool operator==(const PersistedNetdevIncidents&) const = default;
};

struct PersistedRailTraffic {
  TrafficState state = TrafficState::kIdle;
  double since = 0;  // when the rail entered `state`
  std::optional<double> baseline;
  bool node_wide = false;
  ConsumerKnowledge consumers = ConsumerKnowledge::kUnknown;
  bool operator==(const PersistedRailTraffic&) const = default;
};

// The far end (LLDP neighbor) a rail had last: the frame as received, and when its last frame
// came. Equal when the frames are: a repeated frame's newer time alone does not make the file be
// written (it is written with the time it has whenever it is written for another reason, at least
// every two minutes and at shutdown).
struct PersistedFarEnd {
  std::vector<uint8_t> frame;
  double last_seen = 0;
  bool operator==(const PersistedFarEnd& other) const { return frame == other.frame; }
};

// The link-quality and PFC-storm verdicts, as labels: "degraded" | "failing" per netdev (with
// the reason it gave); the (netdev, priority, "rx" | "tx") in a PFC storm; the driver's storm
// event counts per netdev. Verdicts are equal when their states are: a reason whose numbers
// moved does not make the file be written by itself.
struct PersistedLinkQuality {
  std::string state;
  std::string reason;
  bool operator==(const PersistedLinkQuality& other) const { return state == other.state; }
};
struct PersistedDriverStorm {
  uint64_t warning_events = 0;
  uint64_t error_events = 0;
  bool operator==(const PersistedDriverStorm&) const = default;
};

// An RDMA port seen on this boot (inventory/device_presence_detector.h), by device and port: its
// netdev (the last one it had; "" if none), and since when it is missing (nullopt while present).
// `unwatched`: it vanished while no daemon ran, and `missing_since` is when a daemon last knew it
// present (the write time of the state file that listed it).
struct PersistedSeenPort {
  std::string netdev;
  std::optional<double> missing_since;
  bool unwatched = false;
  bool operator==(const PersistedSeenPort&) const = default;
};

struct PersistedIncidents {
  std::map<std::string, PersistedNetdevIncidents> netdevs;
  std::map<PortKey, PersistedRailTraffic> rails;
  std::map<std::pair<std::string, std::string>, double> finding_since;  // (check, subject)
  // By rail netdev. Optional in the file ("far_ends"): a file without it restores none.
  std::map<std::string, PersistedFarEnd> far_ends{};
  // Optional in the file ("link_quality", "pfc_storms", "pfc_driver_storms").
  std::map<std::string, PersistedLinkQuality> link_quality{};
  std::set<std::tuple<std::string, int, std::string>> pfc_storms{};
  std::map<std::string, PersistedDriverStorm> pfc_driver_storms{};
  // Optional in the file ("seen_ports"): a file without it restores none.
  std::map<PortKey, PersistedSeenPort> seen_ports{};
  bool operator==(const PersistedIncidents&) const = default;
};

// The link-quality and PFC-storm verdicts of the link-quality feature (as in PersistedIncidents).
struct PersistedLinkVerdicts {
  std::map<std::string, PersistedLinkQuality> link_quality;
  std::set<std::tuple<std::string, int, std::string>> pfc_storms;
  std::map<std::string, PersistedDriverStorm> pfc_driver_storms;
  bool operator==(const PersistedLinkVerdicts&) const = default;
};

// What a feature did with the incidents restored at start: (check, status) -> how many, status
// "checking" (not judged yet), "confirmed" (still open), "healed" (resolved, with an event) or
// "dropped" (its netdev or port is gone).
using RestoreCounts = std::map<std::pair<std::string, std::string>, size_t>;

// The open netdev incidents (netdev health), and what became of the restored ones.
struct KeptNetdevIncidents {
  std::map<std::string, PersistedNetdevIncidents> netdevs;
  RestoreCounts restored;
};

// The rails worth resuming (traffic): those with a baseline or in trouble; what became of the
// restored ones, and how many were not restored because the file was too old to trust.
struct KeptRailIncidents {
  std::map<PortKey, PersistedRailTraffic> rails;
  RestoreCounts restored;
  size_t not_trusted = 0;
};

// The RDMA ports seen on this boot (device presence), and what became of the restored missing
// ones.
struct KeptSeenPorts {
  std::map<PortKey, PersistedSeenPort> ports;
  RestoreCounts restored;
};

// The previous run's open incidents, from a usable state file of this boot.
struct RestoredIncidents {
  PersistedIncidents incidents;
  double written_at_unix_seconds = 0;
};

}  // namespace rocewatch
