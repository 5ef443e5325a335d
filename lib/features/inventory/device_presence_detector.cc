#include "inventory/device_presence_detector.h"

#include <cmath>

#include "export/daemon_findings.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

bool EndsWith(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// "ens2f0np0" or "no netdev".
std::string NetdevText(const std::string& netdev) {
  return netdev.empty() ? "no netdev" : "netdev " + netdev;
}

}  // namespace

std::string FormatMissingFor(double seconds) {
  const long long total = seconds > 0 ? std::llround(seconds) : 0;
  const long long days = total / 86400, hours = total % 86400 / 3600;
  const long long minutes = total % 3600 / 60, rest = total % 60;
  if (days > 0) return std::to_string(days) + "d" + std::to_string(hours) + "h";
  if (hours > 0) return std::to_string(hours) + "h" + std::to_string(minutes) + "m";
  if (minutes > 0) return std::to_string(minutes) + "m" + std::to_string(rest) + "s";
  return std::to_string(rest) + "s";
}

bool PresenceUnjudged(const NodeSnapshot& snapshot, const std::string& device) {
  const std::string within = "/" + device + "/";
  for (const ReadFailure& failure : snapshot.read_failures) {
    const std::string_view path = failure.path;
    if (path.find(within) != std::string_view::npos || EndsWith(path, "/" + device) ||
        EndsWith(path, "class/infiniband") || EndsWith(path, "class/infiniband/"))
      return true;
  }
  return false;
}

DevicePresenceDetector::DevicePresenceDetector(PortExpected expected)
    : expected_(std::move(expected)) {}

bool DevicePresenceDetector::Expected(const PortKey& port, const std::string& netdev) const {
  return !expected_ || expected_(port, netdev);
}

void DevicePresenceDetector::Restore(std::map<PortKey, PersistedSeenPort> seen, double written_at) {
  ports_ = std::move(seen);
  restored_written_at_ = written_at;
  restored_present_.clear();
  for (const auto& [key, port] : ports_)
    if (!port.missing_since) restored_present_.insert(key);
}

size_t DevicePresenceDetector::missing() const {
  size_t n = 0;
  for (const auto& [key, port] : ports_) n += port.missing_since ? 1 : 0;
  return n;
}

std::vector<PresenceChange> DevicePresenceDetector::Observe(const NodeSnapshot& snapshot,
                                                            double now) {
  // The ports of the snapshot, and which of them holds each netdev.
  std::map<PortKey, std::string> present;
  std::map<std::string, PortKey> by_netdev;
  for (const Device& device : snapshot.devices) {
    for (const Port& port : device.ports) {
      PortKey key{device.name, port.number};
      std::string netdev = PrimaryNetdev(port);
      if (!netdev.empty()) by_netdev.emplace(netdev, key);
      present.emplace(std::move(key), std::move(netdev));
    }
  }

  std::vector<PresenceChange> changes;
  for (auto it = ports_.begin(); it != ports_.end();) {
    const PortKey& key = it->first;
    PersistedSeenPort& seen = it->second;
    if (present.count(key) > 0) {
      if (seen.missing_since)
        changes.push_back({PresenceChange::Kind::kReturned, key, seen.netdev, seen.missing_since,
                           seen.unwatched, std::nullopt});
      seen.missing_since.reset();
      seen.unwatched = false;
      restored_present_.erase(key);
      ++it;
      continue;
    }
    // Absent. Back under another name: its netdev is on a port first seen in this snapshot.
    auto moved = seen.netdev.empty() ? by_netdev.end() : by_netdev.find(seen.netdev);
    if (moved != by_netdev.end() && ports_.count(moved->second) == 0) {
      changes.push_back({PresenceChange::Kind::kReturned, key, seen.netdev, seen.missing_since,
                         seen.unwatched, moved->second});
      restored_present_.erase(key);
      it = ports_.erase(it);
      continue;
    }
    if (!seen.missing_since && PresenceUnjudged(snapshot, key.device)) {
      ++it;  // a failed read is never a fact: judged at a later snapshot
      continue;
    }
    if (!Expected(key, seen.netdev)) {
      changes.push_back({PresenceChange::Kind::kAcknowledged, key, seen.netdev, seen.missing_since,
                         seen.unwatched, std::nullopt});
      restored_present_.erase(key);
      it = ports_.erase(it);
      continue;
    }
    if (!seen.missing_since) {
      if (restored_present_.erase(key) > 0) {
        seen.missing_since = restored_written_at_;
        seen.unwatched = true;
      } else {
        seen.missing_since = now;
      }
      changes.push_back({PresenceChange::Kind::kDisappeared, key, seen.netdev, seen.missing_since,
                         seen.unwatched, std::nullopt});
    }
    ++it;
  }
  // New ports, and the netdevs of known ones (a port's netdev may come after the port).
  for (auto& [key, netdev] : present) {
    PersistedSeenPort& seen = ports_[key];
    if (!netdev.empty()) seen.netdev = std::move(netdev);
  }
  return changes;
}

std::vector<Finding> DevicePresenceDetector::Findings(double now) const {
  std::vector<Finding> out;
  for (const auto& [key, seen] : ports_) {
    if (!seen.missing_since) continue;
    const double since = *seen.missing_since;
    const std::string name = key.ToString();
    std::string message =
        seen.unwatched
            ? "RDMA port " + name + " (" + NetdevText(seen.netdev) +
                  ") disappeared while rocewatch was not running: present at " +
                  FormatUtc(since, false) + " (the daemon's last state), absent since it started " +
                  "again (missing for at least " + FormatMissingFor(now - since) + ")"
            : "RDMA port " + name + " (" + NetdevText(seen.netdev) + ") disappeared at " +
                  FormatUtc(since, false) + " and has not come back (missing for " +
                  FormatMissingFor(now - since) + ")";
    message +=
        ": the device left /sys/class/infiniband (driver reset or unload, PCIe error, firmware "
        "crash); jobs that use this rail fail";
    out.push_back(
        {SeverityOf("device_disappeared"), "device_disappeared", name, std::move(message),
         "Drain the node's RDMA jobs and follow the RoceDeviceDisappeared runbook (dmesg for "
         "mlx5, PCIe and firmware errors; reload the driver or reboot). If the rail is gone on "
         "purpose, acknowledge it: retire it in the rail plan (a line `" +
             name + " - -`, or no line that covers it) and restart rocewatch with --rail-plan."});
  }
  return out;
}

}  // namespace rocewatch
