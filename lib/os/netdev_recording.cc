#include "os/netdev_recording.h"

#include <arpa/inet.h>

#include <algorithm>
#include <optional>
#include <sstream>

namespace rocewatch {
namespace {

constexpr const char* kNotInNamespace = "not in the namespace";

std::optional<IpAddress> ParseAddress(const std::string& text) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  IpAddress address;
  address.address = text.substr(0, slash);
  const std::string prefix = text.substr(slash + 1);
  if (prefix.empty() || prefix.size() > 3 ||
      !std::all_of(prefix.begin(), prefix.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const int length = std::stoi(prefix);
  in6_addr bytes{};
  if (inet_pton(AF_INET, address.address.c_str(), &bytes) == 1 && length <= 32) {
    address.family = AddressFamily::kIpv4;
  } else if (inet_pton(AF_INET6, address.address.c_str(), &bytes) == 1 && length <= 128) {
    address.family = AddressFamily::kIpv6;
    address.link_local = IN6_IS_ADDR_LINKLOCAL(&bytes);
  } else {
    return std::nullopt;
  }
  address.prefix_len = static_cast<uint8_t>(length);
  return address;
}

}  // namespace

std::string NetdevRecordingPath(const std::string& host_root) {
  return JoinPath(host_root, "rocewatch/netlink/addresses");
}

std::string FormatNetdevRecording(const std::map<std::string, NetdevObservation>& observations) {
  std::string text =
      "# netdev: carrier, admin state, addresses (this network namespace at "
      "collect time)\n";
  for (const auto& [name, observation] : observations) {
    text += name + ": ";
    if (!observation.in_namespace) {
      text += std::string(kNotInNamespace) + "\n";
      continue;
    }
    text += observation.state.carrier ? "carrier up" : "carrier down";
    text += observation.state.admin_up ? ", admin up" : ", admin down";
    for (size_t i = 0; i < observation.state.addresses.size(); ++i)
      text += (i == 0 ? ", " : " ") + observation.state.addresses[i].ToString();
    text += "\n";
  }
  return text;
}

StatusOr<std::map<std::string, NetdevObservation>> ParseNetdevRecording(const std::string& text) {
  std::map<std::string, NetdevObservation> out;
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    auto bad = [&](const std::string& why) {
      return Status::InvalidArgument("line " + std::to_string(number) + ": " + why);
    };
    const size_t colon = line.find(": ");
    if (colon == std::string::npos || colon == 0) return bad("expected 'netdev: ...'");
    const std::string name = line.substr(0, colon);
    const std::string rest = line.substr(colon + 2);
    if (rest == kNotInNamespace) continue;
    NetdevObservation observation;
    observation.state.name = name;
    observation.in_namespace = true;
    observation.carrier_known = true;
    std::istringstream words(rest);
    std::string word;
    bool carrier_seen = false;
    while (words >> word) {
      if (!word.empty() && word.back() == ',') word.pop_back();
      if (word == "carrier" || word == "admin") {
        std::string value;
        words >> value;
        if (!value.empty() && value.back() == ',') value.pop_back();
        if (value != "up" && value != "down") return bad("'" + word + "' must be up or down");
        (word == "carrier" ? observation.state.carrier : observation.state.admin_up) =
            value == "up";
        carrier_seen = carrier_seen || word == "carrier";
        continue;
      }
      std::optional<IpAddress> address = ParseAddress(word);
      if (!address) return bad("'" + word + "' is not an address/prefix");
      observation.state.addresses.push_back(*address);
    }
    if (!carrier_seen) return bad("no carrier state");
    std::sort(observation.state.addresses.begin(), observation.state.addresses.end());
    out[name] = std::move(observation);
  }
  return out;
}

RecordedNetdevReader::RecordedNetdevReader(const FileSystem& fs, const std::string& host_root,
                                           NetdevReader& live)
    : live_(live) {
  StatusOr<std::string> text = fs.ReadFile(NetdevRecordingPath(host_root));
  if (!text.ok()) return;  // no recording: a live host
  StatusOr<std::map<std::string, NetdevObservation>> parsed = ParseNetdevRecording(*text);
  if (parsed.ok()) {
    recorded_ = std::move(*parsed);
  } else {
    problem_ = NetdevRecordingPath(host_root) + ": " + parsed.status().message();
  }
}

std::map<std::string, NetdevObservation> RecordedNetdevReader::Read(
    const std::vector<std::string>& names) {
  std::map<std::string, NetdevObservation> out = live_.Read(names);
  for (auto& [name, observation] : out) {
    auto recorded = recorded_.find(name);
    if (recorded == recorded_.end()) continue;
    // The sysfs attributes under the host root (ifindex, operstate, carrier_changes) stay.
    NetdevState state = recorded->second.state;
    state.ifindex = observation.state.ifindex;
    state.operstate = observation.state.operstate;
    state.carrier_changes = observation.state.carrier_changes;
    observation.state = std::move(state);
    observation.in_namespace = true;
    observation.carrier_known = true;
  }
  return out;
}

}  // namespace rocewatch
