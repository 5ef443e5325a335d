#pragma once
// The open incidents (model/open_incidents.h) in the state file (schema 3, beside the GID state):
// to and from JSON, with the bounds a file must keep to be used.

#include <nlohmann/json.hpp>

#include "model/open_incidents.h"

namespace rocewatch {

// A persisted LLDP frame longer than this is malformed (the receiver keeps at most 1522 bytes).
inline constexpr size_t kMaxPersistedFrameBytes = 1522;

// Entries of one list (netdevs, addresses, rules, rails, findings, seen ports) beyond this make
// the incidents unusable: no real node has that many, a hostile or broken file may.
inline constexpr size_t kMaxIncidentEntries = 4096;

nlohmann::json IncidentsToJson(const PersistedIncidents& incidents);
// Throws (nlohmann::json::exception or std::out_of_range, with what is wrong) on anything
// malformed, out of range or too large; the caller drops the incidents and says why.
PersistedIncidents IncidentsFromJson(const nlohmann::json& object);

}  // namespace rocewatch
