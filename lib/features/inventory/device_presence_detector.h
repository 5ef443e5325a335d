#pragma once
// RDMA ports that disappear while rocewatch runs (docs/detection.md, "A device that disappears").
//
// Rules, per port (device and port number):
//  - seen: a port in a snapshot is seen, with its netdev (PrimaryNetdev; the last non-empty one is
//    kept, so a missing port still names the netdev it had).
//  - missing: a seen port absent from a snapshot is missing from that snapshot's time on: the
//    critical finding device_disappeared, held until
//      * it is in a snapshot again (returned), or
//      * a port first seen in this snapshot has its netdev (returned under another name: a driver
//        reload may bring mlx5_3 back as mlx5_8), or
//      * it is acknowledged gone: `expected` says the operator no longer expects it (the rail plan
//        no longer lists it). A port not expected when it vanishes is acknowledged at once.
//  - not judged: a failed read is never a fact. A snapshot whose named failed reads are under the
//    port's device (or the RDMA class directory itself) makes no port of that device missing; one
//    already missing stays missing. (The sysfs poller lists before it reads and names the first
//    failures of a poll, so a device left out because its listing failed is named; failures
//    counted elsewhere, a broken device's counters, do not hide another device's loss.)
//  - restored (a restart on the same boot, from the state file): the ports the previous run saw,
//    each missing one with its own since; a port present then and absent at the first snapshot
//    judged now vanished while no daemon watched: missing since the file was written, `unwatched`.
// Pure: snapshots and Unix times in, changes, findings and state out (Unix times, not monotonic
// ones: "since when" is for people and for the state file). Not thread-safe.

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/finding.h"
#include "model/node.h"
#include "model/open_incidents.h"
#include "model/port_key.h"

namespace rocewatch {

// Whether the operator still expects `port` (last known by `netdev`, "" if none). Asked for each
// missing port at each snapshot, and for a port at the snapshot it vanishes from.
using PortExpected = std::function<bool(const PortKey& port, const std::string& netdev)>;

struct PresenceChange {
  enum class Kind {
    kDisappeared,   // seen, absent now, expected: missing from now on
    kReturned,      // missing, and in the snapshot again (returned_as: under another name)
    kAcknowledged,  // missing or vanishing now, and no longer expected: forgotten
  };
  Kind kind = Kind::kDisappeared;
  PortKey port;
  std::string netdev;
  // kDisappeared: the snapshot's time (or, unwatched, when it was last known present); the
  // others: since when it was missing (nullopt for one acknowledged as it vanished).
  std::optional<double> missing_since;
  bool unwatched = false;
  std::optional<PortKey> returned_as;

  bool operator==(const PresenceChange&) const = default;
};

class DevicePresenceDetector {
 public:
  // `expected` null: every port is expected (no rail plan).
  explicit DevicePresenceDetector(PortExpected expected = nullptr);

  // The ports a previous run of this boot saw, its state file written at `written_at`.
  // REQUIRES: before the first Observe.
  void Restore(std::map<PortKey, PersistedSeenPort> seen, double written_at);

  // Judges `snapshot`, taken at `now` (Unix seconds). Changes in port order.
  std::vector<PresenceChange> Observe(const NodeSnapshot& snapshot, double now);

  // Every port seen, present or missing.
  const std::map<PortKey, PersistedSeenPort>& ports() const { return ports_; }
  size_t missing() const;

  // device_disappeared (critical) for each missing port, its age counted to `now`.
  std::vector<Finding> Findings(double now) const;

 private:
  bool Expected(const PortKey& port, const std::string& netdev) const;

  PortExpected expected_;
  std::map<PortKey, PersistedSeenPort> ports_;
  // Restored as present, not judged since: absent at their first judgement, unwatched.
  std::set<PortKey> restored_present_;
  double restored_written_at_ = 0;
};

// How long a port has been missing, for people, in its two largest units: "45s", "5m12s",
// "3h7m", "2d4h" (whole seconds; a negative age is "0s").
std::string FormatMissingFor(double seconds);

// True when the snapshot gives no verdict on `device`'s ports: a named failed read lies under the
// device's directory (or is the RDMA class directory itself).
bool PresenceUnjudged(const NodeSnapshot& snapshot, const std::string& device);

}  // namespace rocewatch
