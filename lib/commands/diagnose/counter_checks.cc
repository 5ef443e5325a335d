// Counter checks: link quality (cabling, signal) between two snapshots, and whether the NIC
// exposes adaptive retransmission at all.

#include <algorithm>
#include <cstdio>
#include <set>

#include "diagnose/check_groups.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

// counters/ files that rise with a bad cable, transceiver or switch port (Imbue's bring-up).
constexpr const char* kLinkErrorCounters[] = {"symbol_error", "link_error_recovery", "link_downed"};

void CheckLinkErrorCounters(const ConfigurationCheckInput& input, std::vector<Finding>& out) {
  if (input.earlier == nullptr) return;
  double seconds = ToSeconds(input.snapshot->taken_at - input.earlier->taken_at);
  for (const Device& device : input.snapshot->devices)
    for (const Port& port : device.ports) {
      const Port* before = input.earlier->FindPort(device.name, port.number);
      if (before == nullptr) continue;
      std::vector<std::string> rising;
      for (const char* name : kLinkErrorCounters) {
        auto now = port.counters.counters.find(name);
        auto then = before->counters.counters.find(name);
        if (now == port.counters.counters.end() || then == before->counters.counters.end())
          continue;
        if (now->second > then->second)  // a lower value is a reset, not a rise
          rising.push_back(std::string(name) + " " + std::to_string(then->second) + " -> " +
                           std::to_string(now->second));
      }
      if (rising.empty()) continue;
      std::string name = PortName(device.name, port.number);
      char span[32];
      std::snprintf(span, sizeof(span), "%.0f s", seconds);
      out.push_back(
          {SeverityOf(check_id::kLinkErrorCountersRising), check_id::kLinkErrorCountersRising, name,
           name + " link error counters rose within " + span + ": " + JoinList(rising) +
               ". These are the early signs of a bad cable, transceiver or switch port that "
               "ends in link flaps.",
           "Check the link's signal quality (`mlxlink -d <pci> -m` or `ethtool -m " +
               (port.netdevs.empty() ? std::string("<netdev>") : port.netdevs.front()) +
               "`), reseat or replace the cable/transceiver, and check the switch port's error "
               "counters."});
    }
}

void CheckAdaptiveRetransmission(const ConfigurationCheckInput& input, std::vector<Finding>& out) {
  std::vector<std::string> devices;
  for (const Device& device : input.snapshot->devices) {
    bool lacks = false;
    for (const Port& port : device.ports) {
      const auto& hw = port.counters.hw_counters;
      if (!port.IsRoce() || hw.empty()) continue;  // nothing to judge without hw_counters
      // roce_adp_retrans* belong to mlx5's hw_counters family (with its Q-counters, among them
      // out_of_sequence). Another driver's family (soft-RoCE, other vendors) never has them:
      // not available, not absent.
      if (!hw.contains("out_of_sequence")) continue;
      // A hw_counters/ file that failed its read may be the one: unknown, not absent.
      const std::vector<std::string>& unknown = port.counters.unreadable;
      if (std::any_of(unknown.begin(), unknown.end(),
                      [](const std::string& n) { return n.starts_with("hw_counters/"); }))
        continue;
      bool present = false;
      for (const auto& [counter, value] : hw)
        if (counter.rfind("roce_adp_retrans", 0) == 0) present = true;
      if (!present) lacks = true;
    }
    if (lacks) devices.push_back(device.name);
  }
  if (devices.empty()) return;
  out.push_back(
      {SeverityOf(check_id::kAdaptiveRetransmissionCountersAbsent),
       check_id::kAdaptiveRetransmissionCountersAbsent, JoinList(devices, 64),
       "No roce_adp_retrans* counters in hw_counters/ of " + JoinList(devices) +
           ": the driver only exposes them when the firmware reports RoCE acceleration support, "
           "so adaptive retransmission (which MegaScale enabled to ride out flaps) is "
           "unsupported or unknown here.",
       "Check the firmware: `mlxreg -d <pci> --reg_name ROCE_ACCL --get` shows "
       "roce_adp_retrans_en (set it with --set roce_adp_retrans_en=0x1 where supported); update "
       "the NIC firmware if the register or field is missing."});
}

}  // namespace

void CheckCounters(const ConfigurationCheckInput& input, std::vector<Finding>& out) {
  CheckLinkErrorCounters(input, out);
  CheckAdaptiveRetransmission(input, out);
}

}  // namespace rocewatch
