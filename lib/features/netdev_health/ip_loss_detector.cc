#include "netdev_health/ip_loss_detector.h"

#include <algorithm>

#include "core/duration.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

std::string Millis(Duration d) {
  return FormatDuration(std::chrono::duration_cast<std::chrono::milliseconds>(d));
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

void IpLossDetector::Reset(const std::string& netdev, bool carrier,
                           const std::vector<IpAddress>& addresses, MonoTime at) {
  (void)at;
  NetdevIps n;
  n.carrier = carrier;
  for (const IpAddress& a : addresses)
    if (!a.link_local) n.current.insert(a);
  netdevs_[netdev] = std::move(n);
}

void IpLossDetector::Forget(const std::string& netdev) { netdevs_.erase(netdev); }

bool IpLossDetector::NearTransition(const NetdevIps& n, MonoTime at) const {
  if (!n.last_transition) return false;
  Duration d = at > *n.last_transition ? at - *n.last_transition : *n.last_transition - at;
  return d <= config_.transition_window;
}

void IpLossDetector::CountLoss(NetdevIps& n, const IpAddress& address, MonoTime at) {
  ++n.ip_lost_total;
  if (!n.last_lost || at >= n.last_lost->at) n.last_lost = LostAddress{address, at};
}

void IpLossDetector::StartFlap(NetdevIps& n, MonoTime at) {
  // Removals just before the carrier went down belong to this flap.
  for (const auto& [address, removed_at] : n.recent_removals) {
    if (at - removed_at > config_.transition_window) continue;
    CountLoss(n, address, removed_at);
    n.expected.insert(address);
  }
  n.recent_removals.clear();
  for (const IpAddress& a : n.current) n.expected.insert(a);
  for (const auto& [a, since] : n.missing) n.expected.insert(a);
  n.expected_by.reset();
  n.last_transition = at;
}

void IpLossDetector::OnCarrier(const std::string& netdev, bool carrier, MonoTime at) {
  auto it = netdevs_.find(netdev);
  if (it == netdevs_.end() || it->second.carrier == carrier) return;
  NetdevIps& n = it->second;
  n.carrier = carrier;
  if (!carrier) {
    StartFlap(n, at);
    return;
  }
  n.last_transition = at;
  if (!n.expected.empty()) n.expected_by = at + config_.grace;
}

void IpLossDetector::OnInferredFlap(const std::string& netdev, MonoTime at) {
  auto it = netdevs_.find(netdev);
  if (it == netdevs_.end()) return;
  NetdevIps& n = it->second;
  StartFlap(n, at);
  if (n.carrier && !n.expected.empty()) n.expected_by = at + config_.grace;
}

void IpLossDetector::OnAddressRemoved(const std::string& netdev, const IpAddress& address,
                                      MonoTime at) {
  auto it = netdevs_.find(netdev);
  if (it == netdevs_.end() || address.link_local) return;
  NetdevIps& n = it->second;
  if (n.current.erase(address) == 0) return;
  if (!n.carrier || NearTransition(n, at)) {
    CountLoss(n, address, at);
    n.expected.insert(address);
    return;
  }
  // Maybe the carrier is about to go down (linkwatch reports it late): keep it for a while.
  n.recent_removals[address] = at;
  if (n.recent_removals.size() >= n.prune_recent_removals_at) {
    std::erase_if(n.recent_removals,
                  [&](const auto& r) { return at - r.second > config_.transition_window; });
    n.prune_recent_removals_at = std::max<size_t>(64, 2 * n.recent_removals.size());
  }
}

void IpLossDetector::OnAddressAdded(const std::string& netdev, const IpAddress& address,
                                    MonoTime at) {
  (void)at;
  auto it = netdevs_.find(netdev);
  if (it == netdevs_.end() || address.link_local) return;
  NetdevIps& n = it->second;
  n.current.insert(address);
  n.expected.erase(address);
  n.missing.erase(address);
  n.recent_removals.erase(address);
  if (n.expected.empty()) n.expected_by.reset();
}

void IpLossDetector::Evaluate(MonoTime now) {
  for (auto& [name, n] : netdevs_) {
    if (!n.expected_by || now < *n.expected_by) continue;
    for (const IpAddress& a : n.expected)
      if (n.current.count(a) == 0) n.missing.emplace(a, *n.expected_by);
    n.expected.clear();
    n.expected_by.reset();
  }
}

std::optional<MonoTime> IpLossDetector::NextDeadline() const {
  std::optional<MonoTime> next;
  for (const auto& [name, n] : netdevs_)
    if (n.expected_by && (!next || *n.expected_by < *next)) next = n.expected_by;
  return next;
}

const IpLossDetector::NetdevIps* IpLossDetector::Find(const std::string& netdev) const {
  auto it = netdevs_.find(netdev);
  return it == netdevs_.end() ? nullptr : &it->second;
}

std::map<std::string, std::map<IpAddress, MonoTime>> IpLossDetector::ExportMissing() const {
  std::map<std::string, std::map<IpAddress, MonoTime>> out;
  for (const auto& [name, n] : netdevs_)
    if (!n.missing.empty()) out.emplace(name, n.missing);
  return out;
}

IpLossDetector::RestoreVerdict IpLossDetector::RestoreMissing(const std::string& netdev,
                                                              const IpAddress& address,
                                                              MonoTime since) {
  auto it = netdevs_.find(netdev);
  if (it == netdevs_.end() || address.link_local) return RestoreVerdict::kNetdevGone;
  NetdevIps& n = it->second;
  if (n.current.count(address) != 0) return RestoreVerdict::kBack;
  auto [missing, added] = n.missing.emplace(address, since);
  if (!added) missing->second = std::min(missing->second, since);
  return RestoreVerdict::kStillMissing;
}

void IpLossDetector::AppendFindings(MonoTime now, std::vector<Finding>& out) const {
  for (const auto& [name, n] : netdevs_) {
    if (n.ip_lost_total > 0 && n.last_lost) {
      const LostAddress& last = *n.last_lost;
      out.push_back(
          {SeverityOf("ip_lost_during_flap"), "ip_lost_during_flap", name,
           name + " lost " + std::to_string(n.ip_lost_total) +
               " address(es) during carrier flaps; the last, " + last.address.ToString() + ", " +
               Millis(now - last.at) +
               " ago. Each removal deletes the port's RoCE GIDs, and the GID re-added with the "
               "address can land at a new index (GID drift).",
           "Configure the RNIC addresses so that carrier loss keeps them: NetworkManager "
           "ignore-carrier for these devices, systemd-networkd IgnoreCarrierLoss=yes / "
           "KeepConfiguration=yes, or ifupdown (which keeps addresses)."});
    }
    if (!n.missing.empty()) {
      std::vector<std::string> parts;
      MonoTime oldest = now;
      for (const auto& [a, since] : n.missing) {
        parts.push_back(a.ToString());
        oldest = std::min(oldest, since);
      }
      out.push_back({SeverityOf("ip_missing_after_flap"), "ip_missing_after_flap", name,
                     name + " has not got back " + Join(parts) + " since its carrier returned (" +
                         Millis(now - oldest) + " past the " + Millis(config_.grace) +
                         " grace period); RDMA traffic using its GIDs cannot resume.",
                     "Restore the address (reactivate the connection in the interface manager, or "
                     "`ip addr add`), check the manager's log for why it did not, then restart "
                     "jobs that held the old GID index."});
    }
  }
}

}  // namespace rocewatch
