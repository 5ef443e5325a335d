#include "netlink/netlink_netdev_reader.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "netlink/netdev_dump.h"

namespace rocewatch {
namespace {

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::map<std::string, NetdevObservation> NetlinkNetdevReader::Read(
    const std::vector<std::string>& names) {
  std::map<std::string, NetdevObservation> out;
  for (const std::string& name : names) out[name].state.name = name;

  StatusOr<NetdevDumpReport> dump =
      DumpNetdevs(source_, std::set<std::string>(names.begin(), names.end()));
  dump_status_ = dump.ok() ? Status::Ok() : dump.status();
  rules_.reset();
  if (dump.ok()) {
    rules_ = dump->rules;
    for (NetdevState& state : dump->netdevs) {
      NetdevObservation& observation = out[state.name];
      observation.in_namespace = true;
      observation.carrier_known = true;
      std::sort(state.addresses.begin(), state.addresses.end());
      observation.state = std::move(state);
    }
  }

  // Not in this namespace: what sysfs says about it (no addresses).
  for (auto& [name, observation] : out) {
    if (observation.in_namespace) continue;
    const std::string dir = paths_.NetClassDir() + "/" + name;
    if (auto ifindex = fs_.ReadFile(dir + "/ifindex"); ifindex.ok())
      observation.state.ifindex = std::atoi(ifindex->c_str());
    if (auto oper = fs_.ReadFile(dir + "/operstate"); oper.ok())
      observation.state.operstate = Trimmed(*oper);
    if (auto changes = fs_.ReadFile(dir + "/carrier_changes"); changes.ok())
      observation.state.carrier_changes = std::strtoull(changes->c_str(), nullptr, 10);
    if (auto carrier = fs_.ReadFile(dir + "/carrier"); carrier.ok() && !carrier->empty()) {
      observation.carrier_known = (*carrier)[0] == '0' || (*carrier)[0] == '1';
      observation.state.carrier = (*carrier)[0] == '1';
    }
  }
  return out;
}

}  // namespace rocewatch
