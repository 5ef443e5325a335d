#pragma once
// The RNIC netdevs' link flags and addresses as `rocewatch collect` recorded them from its network
// namespace, <host-root>/rocewatch/netlink/addresses (docs/bundle.md), one line per netdev:
//   ens1f0np0: carrier up, admin up, 10.0.0.2/24 fd00::2/64
//   ens2f0np0: carrier down, admin up
//   ens3f0np0: not in the namespace
// and a NetdevReader that answers from it, so that `diagnose --host-root BUNDLE` reports the
// addresses the collecting host had (and the checks that need them run) on any machine.

#include <map>
#include <string>

#include "core/status.h"
#include "os/file_system.h"
#include "os/netdev_reader.h"

namespace rocewatch {

// <host_root>/rocewatch/netlink/addresses
std::string NetdevRecordingPath(const std::string& host_root);

std::string FormatNetdevRecording(const std::map<std::string, NetdevObservation>& observations);
// Lines starting with '#' and blank lines are skipped. Netdevs recorded as "not in the namespace"
// are absent from the result. Errors: InvalidArgument naming the line.
StatusOr<std::map<std::string, NetdevObservation>> ParseNetdevRecording(const std::string& text);

// Answers from the recording under the host root where it has the netdev (a recording stands in
// for the live interface, as ethtool recordings do), from `live` for every other netdev (and for
// all of them when there is no recording). A recording that cannot be parsed is ignored
// (`problem()` says why). REQUIRES: fs and live outlive the reader.
class RecordedNetdevReader final : public NetdevReader {
 public:
  RecordedNetdevReader(const FileSystem& fs, const std::string& host_root, NetdevReader& live);
  std::map<std::string, NetdevObservation> Read(const std::vector<std::string>& names) override;
  const std::string& problem() const { return problem_; }

 private:
  std::map<std::string, NetdevObservation> recorded_;
  NetdevReader& live_;
  std::string problem_;
};

}  // namespace rocewatch
