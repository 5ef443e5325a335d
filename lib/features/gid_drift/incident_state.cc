#include "gid_drift/incident_state.h"

#include <arpa/inet.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/hex.h"

namespace rocewatch {
namespace {

using nlohmann::json;

constexpr size_t kMaxName = 64;
constexpr size_t kMaxReason = 1024;  // a detector's evidence: a few numbers and words  // netdev
                                     // (IFNAMSIZ 16) and RDMA device names are shorter

[[noreturn]] void Bad(const std::string& what) { throw std::out_of_range(what); }

const json& Array(const json& object, const char* key) {
  const json& value = object.at(key);
  if (!value.is_array()) Bad(std::string(key) + " is not an array");
  if (value.size() > kMaxIncidentEntries) Bad(std::string(key) + " has too many entries");
  return value;
}

std::string Name(const json& object, const char* key) {
  std::string name = object.at(key).get<std::string>();
  if (name.empty() || name.size() > kMaxName) Bad(std::string(key) + " is empty or too long");
  return name;
}

double Time(const json& object, const char* key) {
  const json& value = object.at(key);
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
    Bad(std::string(key) + " is not a time");
  return value.get<double>();
}

uint32_t Unsigned(const json& object, const char* key, uint64_t max) {
  const json& value = object.at(key);
  if (!value.is_number_unsigned() || value.get<uint64_t>() > max)
    Bad(std::string(key) + " is not an unsigned number in range");
  return static_cast<uint32_t>(value.get<uint64_t>());
}

AddressFamily Family(const json& object) {
  const std::string family = object.at("family").get<std::string>();
  if (family == "ipv4") return AddressFamily::kIpv4;
  if (family == "ipv6") return AddressFamily::kIpv6;
  Bad("unknown family '" + family + "'");
}

// An address text of `family` ("" allowed where `optional`), with a prefix in range.
std::string Address(const json& object, const char* key, AddressFamily family, bool optional) {
  std::string text = object.at(key).get<std::string>();
  if (optional && text.empty()) return text;
  unsigned char buffer[16];
  if (text.size() > 64 ||
      inet_pton(family == AddressFamily::kIpv4 ? AF_INET : AF_INET6, text.c_str(), buffer) != 1)
    Bad(std::string(key) + " is not an address");
  return text;
}

json AddressToJson(const IpAddress& a) {
  return {{"family", AddressFamilyLabel(a.family)},
          {"address", a.address},
          {"prefix_len", a.prefix_len},
          {"link_local", a.link_local}};
}

IpAddress AddressFromJson(const json& object) {
  IpAddress a;
  a.family = Family(object);
  a.address = Address(object, "address", a.family, false);
  a.prefix_len = static_cast<uint8_t>(
      Unsigned(object, "prefix_len", a.family == AddressFamily::kIpv4 ? 32 : 128));
  a.link_local = object.at("link_local").get<bool>();
  return a;
}

json RuleToJson(const PolicyRule& r) {
  return {{"family", AddressFamilyLabel(r.family)},
          {"src", r.src},
          {"src_len", r.src_len},
          {"dst", r.dst},
          {"dst_len", r.dst_len},
          {"table", r.table},
          {"priority", r.priority},
          {"action", r.action},
          {"fwmark", r.fwmark},
          {"iifname", r.iifname},
          {"oifname", r.oifname}};
}

PolicyRule RuleFromJson(const json& object) {
  PolicyRule r;
  r.family = Family(object);
  const uint64_t max_len = r.family == AddressFamily::kIpv4 ? 32 : 128;
  r.src = Address(object, "src", r.family, true);
  r.src_len = static_cast<uint8_t>(Unsigned(object, "src_len", max_len));
  r.dst = Address(object, "dst", r.family, true);
  r.dst_len = static_cast<uint8_t>(Unsigned(object, "dst_len", max_len));
  r.table = Unsigned(object, "table", std::numeric_limits<uint32_t>::max());
  r.priority = Unsigned(object, "priority", std::numeric_limits<uint32_t>::max());
  r.action = static_cast<uint8_t>(Unsigned(object, "action", 255));
  r.fwmark = Unsigned(object, "fwmark", std::numeric_limits<uint32_t>::max());
  r.iifname = object.at("iifname").get<std::string>();
  r.oifname = object.at("oifname").get<std::string>();
  if (r.iifname.size() > kMaxName || r.oifname.size() > kMaxName) Bad("interface name too long");
  return r;
}

TrafficState StateFromLabel(const std::string& label) {
  for (TrafficState state : kAllTrafficStates)
    if (label == TrafficStateLabel(state)) return state;
  Bad("unknown traffic state '" + label + "'");
}

ConsumerKnowledge ConsumersFromLabel(const std::string& label) {
  for (ConsumerKnowledge k :
       {ConsumerKnowledge::kUnknown, ConsumerKnowledge::kNone, ConsumerKnowledge::kPresent})
    if (label == ConsumerKnowledgeLabel(k)) return k;
  Bad("unknown consumer knowledge '" + label + "'");
}

std::vector<uint8_t> FrameFromHex(const json& object) {
  const std::string text = object.at("frame").get<std::string>();
  std::optional<std::vector<uint8_t>> bytes = HexDecode(text, kMaxPersistedFrameBytes);
  if (!bytes || bytes->empty()) Bad("frame is not lower-case hex of 1 to 1522 bytes");
  return std::move(*bytes);
}

}  // namespace

json IncidentsToJson(const PersistedIncidents& incidents) {
  json netdevs = json::array();
  for (const auto& [name, n] : incidents.netdevs) {
    json missing = json::array();
    for (const auto& [address, since] : n.missing_addresses) {
      json entry = AddressToJson(address);
      entry["since"] = since;
      missing.push_back(std::move(entry));
    }
    json expected = json::array();
    for (const auto& [address, rules] : n.expected_rules) {
      json entry = AddressToJson(address);
      entry["rules"] = json::array();
      for (const PolicyRule& rule : rules) entry["rules"].push_back(RuleToJson(rule));
      expected.push_back(std::move(entry));
    }
    json missing_rules = json::array();
    for (const PolicyRule& rule : n.missing_rules) missing_rules.push_back(RuleToJson(rule));
    netdevs.push_back({{"netdev", name},
                       {"missing_addresses", std::move(missing)},
                       {"expected_rules", std::move(expected)},
                       {"missing_rules", std::move(missing_rules)}});
  }
  json rails = json::array();
  for (const auto& [key, r] : incidents.rails) {
    rails.push_back({{"device", key.device},
                     {"port", key.port},
                     {"state", TrafficStateLabel(r.state)},
                     {"since", r.since},
                     {"baseline", r.baseline ? json(*r.baseline) : json(nullptr)},
                     {"node_wide", r.node_wide},
                     {"consumers", ConsumerKnowledgeLabel(r.consumers)}});
  }
  json findings = json::array();
  for (const auto& [key, since] : incidents.finding_since)
    findings.push_back({{"check", key.first}, {"subject", key.second}, {"since", since}});
  json far_ends = json::array();
  for (const auto& [netdev, far_end] : incidents.far_ends)
    far_ends.push_back({{"netdev", netdev},
                        {"frame", HexEncode(far_end.frame)},
                        {"last_seen", far_end.last_seen}});
  json link_quality = json::array();
  for (const auto& [netdev, verdict] : incidents.link_quality)
    link_quality.push_back(
        {{"netdev", netdev}, {"state", verdict.state}, {"reason", verdict.reason}});
  json pfc_storms = json::array();
  for (const auto& [netdev, priority, direction] : incidents.pfc_storms)
    pfc_storms.push_back({{"netdev", netdev}, {"priority", priority}, {"direction", direction}});
  json driver_storms = json::array();
  for (const auto& [netdev, storm] : incidents.pfc_driver_storms)
    driver_storms.push_back({{"netdev", netdev},
                             {"warning_events", storm.warning_events},
                             {"error_events", storm.error_events}});
  json seen_ports = json::array();
  for (const auto& [key, seen] : incidents.seen_ports)
    seen_ports.push_back(
        {{"device", key.device},
         {"port", key.port},
         {"netdev", seen.netdev},
         {"missing_since", seen.missing_since ? json(*seen.missing_since) : json(nullptr)},
         {"unwatched", seen.unwatched}});
  return {{"netdevs", std::move(netdevs)},
          {"rails", std::move(rails)},
          {"findings", findings},
          {"far_ends", std::move(far_ends)},
          {"link_quality", std::move(link_quality)},
          {"pfc_storms", std::move(pfc_storms)},
          {"pfc_driver_storms", std::move(driver_storms)},
          {"seen_ports", std::move(seen_ports)}};
}

PersistedIncidents IncidentsFromJson(const json& object) {
  if (!object.is_object()) Bad("incidents is not an object");
  PersistedIncidents out;
  for (const json& n : Array(object, "netdevs")) {
    PersistedNetdevIncidents& netdev = out.netdevs[Name(n, "netdev")];
    for (const json& a : Array(n, "missing_addresses"))
      netdev.missing_addresses[AddressFromJson(a)] = Time(a, "since");
    for (const json& a : Array(n, "expected_rules")) {
      std::set<PolicyRule>& rules = netdev.expected_rules[AddressFromJson(a)];
      for (const json& r : Array(a, "rules")) rules.insert(RuleFromJson(r));
    }
    for (const json& r : Array(n, "missing_rules")) netdev.missing_rules.insert(RuleFromJson(r));
  }
  for (const json& r : Array(object, "rails")) {
    PortKey key{Name(r, "device"), Unsigned(r, "port", 255)};
    if (key.port == 0) Bad("port 0");
    PersistedRailTraffic& rail = out.rails[key];
    rail.state = StateFromLabel(r.at("state").get<std::string>());
    rail.since = Time(r, "since");
    if (!r.at("baseline").is_null()) rail.baseline = Time(r, "baseline");
    rail.node_wide = r.at("node_wide").get<bool>();
    rail.consumers = ConsumersFromLabel(r.at("consumers").get<std::string>());
  }
  for (const json& f : Array(object, "findings")) {
    std::string check = f.at("check").get<std::string>();
    std::string subject = f.at("subject").get<std::string>();
    if (check.size() > kMaxName || subject.size() > 2 * kMaxName) Bad("finding key too long");
    out.finding_since[{std::move(check), std::move(subject)}] = Time(f, "since");
  }
  if (object.contains("far_ends"))
    for (const json& f : Array(object, "far_ends"))
      out.far_ends[Name(f, "netdev")] = {FrameFromHex(f), Time(f, "last_seen")};
  if (object.contains("link_quality"))
    for (const json& l : Array(object, "link_quality")) {
      const std::string state = l.at("state").get<std::string>();
      if (state != "degraded" && state != "failing") Bad("unknown link quality '" + state + "'");
      std::string reason = l.at("reason").get<std::string>();
      if (reason.size() > kMaxReason) Bad("link quality reason too long");
      out.link_quality[Name(l, "netdev")] = {state, std::move(reason)};
    }
  if (object.contains("pfc_storms"))
    for (const json& p : Array(object, "pfc_storms")) {
      const std::string direction = p.at("direction").get<std::string>();
      if (direction != "rx" && direction != "tx")
        Bad("unknown pause direction '" + direction + "'");
      out.pfc_storms.insert(
          {Name(p, "netdev"), static_cast<int>(Unsigned(p, "priority", 7)), direction});
    }
  if (object.contains("pfc_driver_storms"))
    for (const json& d : Array(object, "pfc_driver_storms")) {
      const uint64_t max = std::numeric_limits<uint32_t>::max();
      out.pfc_driver_storms[Name(d, "netdev")] = {Unsigned(d, "warning_events", max),
                                                  Unsigned(d, "error_events", max)};
    }
  if (object.contains("seen_ports"))
    for (const json& p : Array(object, "seen_ports")) {
      PortKey key{Name(p, "device"), Unsigned(p, "port", 255)};
      if (key.port == 0) Bad("port 0");
      PersistedSeenPort& seen = out.seen_ports[key];
      seen.netdev = p.at("netdev").get<std::string>();
      if (seen.netdev.size() > kMaxName) Bad("netdev too long");
      if (!p.at("missing_since").is_null()) seen.missing_since = Time(p, "missing_since");
      seen.unwatched = p.at("unwatched").get<bool>();
      if (seen.unwatched && !seen.missing_since) Bad("unwatched without missing_since");
    }
  return out;
}

}  // namespace rocewatch
