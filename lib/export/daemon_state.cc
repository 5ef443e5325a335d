#include "export/daemon_state.h"

#include <cmath>
#include <limits>

namespace rocewatch {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Names longer than this are not names of the host's ports or netdevs.
constexpr size_t kMaxName = 256;

Status Wrong(std::string_view what) {
  return Status::Corrupt("state document: " + std::string(what));
}

// Each reader returns false when `value` is not of its type.
bool ReadName(const json& object, const char* key, std::string& out) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return false;
  out = it->get<std::string>();
  return !out.empty() && out.size() <= kMaxName;
}

bool ReadNumber(const json& object, const char* key, std::optional<double>& out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return true;
  if (!it->is_number()) return false;
  out = it->get<double>();
  return std::isfinite(*out);
}

bool ReadCount(const json& object, const char* key, std::optional<uint64_t>& out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return true;
  if (!it->is_number_unsigned()) return false;
  out = it->get<uint64_t>();
  return true;
}

bool ReadBool(const json& object, const char* key, bool& out) {
  auto it = object.find(key);
  if (it == object.end()) return true;
  if (!it->is_boolean()) return false;
  out = it->get<bool>();
  return true;
}

// The list at `key` (absent: empty). Null when it is not a list or is past the bound.
const json* ReadList(const json& object, const char* key) {
  static const json kEmpty = json::array();
  auto it = object.find(key);
  if (it == object.end()) return &kEmpty;
  if (!it->is_array() || it->size() > kMaxDaemonStateEntries) return nullptr;
  return &*it;
}

std::optional<DaemonPortState> ReadPort(const json& p) {
  DaemonPortState port;
  std::string state;
  std::optional<uint64_t> number;
  if (!p.is_object() || !ReadName(p, "device", port.device) || !ReadCount(p, "port", number) ||
      !number || *number == 0 || *number > 0xffff || !ReadName(p, "traffic_state", state) ||
      !ReadNumber(p, "baseline_bytes_per_second", port.baseline) ||
      !ReadBool(p, "node_wide", port.node_wide) ||
      !ReadCount(p, "transmit_bytes", port.transmit_bytes) ||
      !ReadCount(p, "receive_bytes", port.receive_bytes))
    return std::nullopt;
  port.port = static_cast<uint32_t>(*number);
  bool known = false;
  for (TrafficState s : kAllTrafficStates) {
    if (state != TrafficStateLabel(s)) continue;
    port.traffic_state = s;
    known = true;
  }
  if (!known) return std::nullopt;
  return port;
}

std::optional<DaemonPfcState> ReadPfc(const json& p) {
  DaemonPfcState pfc;
  std::string direction;
  std::optional<uint64_t> priority;
  if (!p.is_object() || !ReadCount(p, "priority", priority) || !priority || *priority > 7 ||
      !ReadName(p, "direction", direction) || (direction != "rx" && direction != "tx") ||
      !ReadNumber(p, "paused_ratio", pfc.paused_fraction) || !ReadBool(p, "storm", pfc.storm))
    return std::nullopt;
  pfc.priority = static_cast<int>(*priority);
  pfc.transmit = direction == "tx";
  return pfc;
}

std::optional<DaemonNetdevState> ReadNetdev(const json& n) {
  DaemonNetdevState netdev;
  if (!n.is_object() || !ReadName(n, "netdev", netdev.netdev) ||
      !ReadName(n, "link_quality", netdev.link_quality) ||
      !ReadNumber(n, "pre_fec_ber", netdev.pre_fec_ber) ||
      !ReadNumber(n, "optics_read_at", netdev.optics_read_at_unix))
    return std::nullopt;
  const json* pfc = ReadList(n, "pfc");
  if (pfc == nullptr) return std::nullopt;
  for (const json& p : *pfc) {
    std::optional<DaemonPfcState> entry = ReadPfc(p);
    if (!entry) return std::nullopt;
    netdev.pfc.push_back(*entry);
  }
  return netdev;
}

StatusOr<DaemonState> ReadState(const json& root) {
  auto schema = root.find("schema");
  auto version = root.find("version");
  if (schema == root.end() || !schema->is_string() || *schema != kDaemonStateSchema)
    return Wrong("not a rocewatch.state document");
  if (version == root.end() || !version->is_number_integer() || *version != kDaemonStateVersion)
    return Wrong("version " + (version == root.end() ? "missing" : version->dump()) +
                 ", this rocewatch reads version " + std::to_string(kDaemonStateVersion));
  DaemonState state;
  std::optional<double> generated, last_poll;
  auto boot = root.find("boot_id");
  if (boot != root.end() && boot->is_string() && boot->get<std::string>().size() <= kMaxName)
    state.boot_id = boot->get<std::string>();
  if (!ReadNumber(root, "generated_at", generated) || !ReadNumber(root, "last_poll", last_poll) ||
      !ReadNumber(root, "optics_interval", state.optics_interval_seconds))
    return Wrong("generated_at, last_poll and optics_interval must be numbers");
  state.generated_at_unix = generated.value_or(0);
  state.last_poll_unix = last_poll.value_or(0);
  const json* ports = ReadList(root, "ports");
  const json* netdevs = ReadList(root, "netdevs");
  if (ports == nullptr || netdevs == nullptr) return Wrong("ports and netdevs must be short lists");
  for (const json& p : *ports) {
    std::optional<DaemonPortState> port = ReadPort(p);
    if (!port) return Wrong("a port entry is malformed: " + p.dump().substr(0, 120));
    state.ports.push_back(std::move(*port));
  }
  for (const json& n : *netdevs) {
    std::optional<DaemonNetdevState> netdev = ReadNetdev(n);
    if (!netdev) return Wrong("a netdev entry is malformed: " + n.dump().substr(0, 120));
    state.netdevs.push_back(std::move(*netdev));
  }
  return state;
}

}  // namespace

ordered_json DaemonStateToJson(const DaemonState& state) {
  ordered_json ports = ordered_json::array();
  for (const DaemonPortState& p : state.ports) {
    ordered_json port = {{"device", p.device},
                         {"port", p.port},
                         {"traffic_state", TrafficStateLabel(p.traffic_state)}};
    if (p.baseline) port["baseline_bytes_per_second"] = *p.baseline;
    port["node_wide"] = p.node_wide;
    if (p.transmit_bytes) port["transmit_bytes"] = *p.transmit_bytes;
    if (p.receive_bytes) port["receive_bytes"] = *p.receive_bytes;
    ports.push_back(std::move(port));
  }
  ordered_json netdevs = ordered_json::array();
  for (const DaemonNetdevState& n : state.netdevs) {
    ordered_json netdev = {{"netdev", n.netdev}, {"link_quality", n.link_quality}};
    if (n.pre_fec_ber) netdev["pre_fec_ber"] = *n.pre_fec_ber;
    ordered_json pfc = ordered_json::array();
    for (const DaemonPfcState& p : n.pfc) {
      ordered_json entry = {{"priority", p.priority}, {"direction", p.transmit ? "tx" : "rx"}};
      if (p.paused_fraction) entry["paused_ratio"] = *p.paused_fraction;
      entry["storm"] = p.storm;
      pfc.push_back(std::move(entry));
    }
    netdev["pfc"] = std::move(pfc);
    if (n.optics_read_at_unix) netdev["optics_read_at"] = *n.optics_read_at_unix;
    netdevs.push_back(std::move(netdev));
  }
  ordered_json out = {{"schema", kDaemonStateSchema}, {"version", kDaemonStateVersion}};
  if (!state.boot_id.empty()) out["boot_id"] = state.boot_id;
  out["generated_at"] = state.generated_at_unix;
  out["last_poll"] = state.last_poll_unix;
  out["ports"] = std::move(ports);
  out["netdevs"] = std::move(netdevs);
  if (state.optics_interval_seconds) out["optics_interval"] = *state.optics_interval_seconds;
  return out;
}

StatusOr<DaemonState> ParseDaemonState(std::string_view text) {
  if (text.size() > kMaxDaemonStateBytes)
    return Wrong("larger than " + std::to_string(kMaxDaemonStateBytes) + " bytes");
  json root = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return Wrong("not a JSON object");
  try {
    return ReadState(root);
  } catch (const std::exception& e) {  // nothing above should throw; never let it cross
    return Wrong(e.what());
  }
}

}  // namespace rocewatch
