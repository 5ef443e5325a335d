#include "netdev_health/link_flap_detector.h"

#include "core/duration.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

std::string Ago(MonoTime then, MonoTime now) {
  return FormatDuration(std::chrono::duration_cast<std::chrono::milliseconds>(now - then)) + " ago";
}

}  // namespace

void LinkFlapDetector::CountFlap(NetdevFlaps& n, MonoTime at) {
  ++n.flaps_total;
  n.last_flap_at = at;
  n.recent.push_back(at);
}

int LinkFlapDetector::Observe(const std::string& netdev, bool carrier, uint64_t carrier_changes,
                              MonoTime at) {
  auto [it, first] = netdevs_.try_emplace(netdev);
  NetdevFlaps& n = it->second;
  if (first) {
    n.carrier = carrier;
    n.kernel_carrier_changes = carrier_changes;
    if (!carrier) n.down_since = at;
    return 0;
  }
  int completed = 0;
  int transitions = carrier != n.carrier ? 1 : 0;
  if (!carrier && n.carrier) {  // an episode starts: counted now, a link may never come back
    n.down_since = at;
    CountFlap(n, at);
    ++completed;
  }
  if (carrier && !n.carrier) {
    if (n.down_since) n.last_duration = at - *n.down_since;
    n.down_since.reset();
  }
  n.carrier = carrier;
  // The kernel counter counts every carrier on and off; what our transitions do not explain are
  // episodes we missed. A counter that went back (the netdev was recreated) is a new baseline.
  if (carrier_changes != 0 && carrier_changes > n.kernel_carrier_changes &&
      n.kernel_carrier_changes != 0) {
    uint64_t unexplained = carrier_changes - n.kernel_carrier_changes;
    unexplained = unexplained > static_cast<uint64_t>(transitions) ? unexplained - transitions : 0;
    for (uint64_t i = 0; i < unexplained / 2; ++i) {
      CountFlap(n, at);
      ++n.inferred_total;
      ++completed;
    }
  }
  if (carrier_changes != 0) n.kernel_carrier_changes = carrier_changes;
  while (!n.recent.empty() && at - n.recent.front() > config_.flapping_window) n.recent.pop_front();
  return completed;
}

void LinkFlapDetector::Forget(const std::string& netdev) { netdevs_.erase(netdev); }

const LinkFlapDetector::NetdevFlaps* LinkFlapDetector::Find(const std::string& netdev) const {
  auto it = netdevs_.find(netdev);
  return it == netdevs_.end() ? nullptr : &it->second;
}

int LinkFlapDetector::FlapsInWindow(const std::string& netdev, MonoTime now) const {
  const NetdevFlaps* n = Find(netdev);
  if (n == nullptr) return 0;
  int count = 0;
  for (MonoTime t : n->recent)
    if (now - t <= config_.flapping_window) ++count;
  return count;
}

bool LinkFlapDetector::IsFlapping(const std::string& netdev, MonoTime now) const {
  return FlapsInWindow(netdev, now) >= config_.flapping_threshold;
}

void LinkFlapDetector::AppendFindings(MonoTime now, std::vector<Finding>& out) const {
  const std::string window = FormatDuration(config_.flapping_window);
  for (const auto& [name, n] : netdevs_) {
    int in_window = FlapsInWindow(name, now);
    std::string evidence;
    if (n.last_flap_at) {
      evidence = "last flap started " + Ago(*n.last_flap_at, now);
      if (!n.carrier)
        evidence += " (carrier still down)";
      else if (n.last_duration)
        evidence += ", carrier back after " +
                    FormatDuration(
                        std::chrono::duration_cast<std::chrono::milliseconds>(*n.last_duration)) +
                    " without carrier";
      evidence += "; " + std::to_string(n.flaps_total) + " flaps observed (" +
                  std::to_string(n.inferred_total) +
                  " only through the kernel counter), kernel carrier_changes " +
                  std::to_string(n.kernel_carrier_changes);
    }
    if (in_window >= config_.flapping_threshold) {
      out.push_back({SeverityOf("link_flapping"), "link_flapping", name,
                     name + " is flapping: " + std::to_string(in_window) + " carrier flaps in " +
                         window + " (threshold " + std::to_string(config_.flapping_threshold) +
                         "); " + evidence,
                     "Check the cable or transceiver and the switch port (symbol errors, "
                     "link_error_recovery, link_downed); until fixed, raise NCCL_IB_TIMEOUT and "
                     "NCCL_IB_RETRY_CNT so that jobs ride out short flaps, and enable the NIC's "
                     "adaptive retransmission."});
    } else if (in_window > 0) {
      out.push_back({SeverityOf("link_flap"), "link_flap", name,
                     name + " lost its carrier " + std::to_string(in_window) + " time(s) in " +
                         window + "; " + evidence,
                     "A single short flap is survivable if NCCL timeouts are long enough and the "
                     "RNIC's address stays; watch for repeats."});
    }
    if (!n.carrier) {
      std::string since = n.down_since ? " since " + Ago(*n.down_since, now) : "";
      out.push_back({SeverityOf("netdev_carrier_down"), "netdev_carrier_down", name,
                     name + " has no carrier" + since + " (kernel carrier_changes " +
                         std::to_string(n.kernel_carrier_changes) + ")",
                     "Check the link partner (switch port), the cable and the transceiver; "
                     "`ip link show` and the switch's port log tell which side dropped."});
    }
  }
}

}  // namespace rocewatch
