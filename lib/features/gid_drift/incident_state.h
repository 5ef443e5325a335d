#pragma once
// The open incidents a restarted daemon judges again, as the state file keeps them (schema 3,
// beside the GID state): per RNIC netdev its addresses missing after a flap and the policy rules
// its addresses had; per rail its traffic state, baseline and consumers and its last LLDP far end;
// the first-seen time of every open finding. Times are Unix seconds: the file outlives the process,
// whose monotonic clock the detectors use. Plain values: the daemon (daemon/restart_state.h)
// converts them from and to what the detectors export.

#include <map>
#include <nlohmann/json.hpp>
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
  bool operator==(const PersistedIncidents&) const = default;
};

// A persisted LLDP frame longer than this is malformed (the receiver keeps at most 1522 bytes).
inline constexpr size_t kMaxPersistedFrameBytes = 1522;

// Entries of one list (netdevs, addresses, rules, rails, findings) beyond this make the
// incidents unusable: no real node has that many, a hostile or broken file may.
inline constexpr size_t kMaxIncidentEntries = 4096;

nlohmann::json IncidentsToJson(const PersistedIncidents& incidents);
// Throws (nlohmann::json::exception or std::out_of_range, with what is wrong) on anything
// malformed, out of range or too large; the caller drops the incidents and says why.
PersistedIncidents IncidentsFromJson(const nlohmann::json& object);

}  // namespace rocewatch
