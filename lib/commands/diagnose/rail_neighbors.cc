#include "diagnose/rail_neighbors.h"

#include "core/utf8.h"
#include "fabric/fabric_checks.h"
#include "fabric/fabric_metric_names.h"
#include "fabric/rail_cabling_checks.h"
#include "lldp/lldp_frame.h"
#include "lldp/recorded_lldp_socket.h"
#include "model/check_policy.h"
#include "netlink/dcb_recording.h"
#include "sysfs/netdev_mtu.h"

namespace rocewatch {
namespace {

std::string LabelOf(const ExposedSample& sample, const std::string& name) {
  auto it = sample.labels.find(name);
  if (it == sample.labels.end()) return "";
  return CutUtf8(ToValidUtf8(it->second), kMaxNeighborLabelBytes);
}

std::optional<NeighborLabels> FromDaemon(const std::vector<ExposedSample>& metrics,
                                         const std::string& netdev) {
  for (const ExposedSample* s : SamplesNamed(metrics, kRailNeighborInfoMetric)) {
    if (s->value != 1 || LabelOf(*s, "netdev") != netdev) continue;
    return NeighborLabels{LabelOf(*s, "chassis_id"), LabelOf(*s, "port_id"),
                          LabelOf(*s, "system_name"), LabelOf(*s, "port_description")};
  }
  return std::nullopt;
}

Finding UnreadableRecording(const std::string& netdev, const std::string& why) {
  return {SeverityOf("read_failed"), "read_failed", netdev,
          netdev + ": the recorded LLDP frame could not be read (" + why +
              "): the rail's far end is unknown",
          "record it again: tcpdump -i " + netdev + " -c 1 -w " + netdev +
              ".pcap ether proto 0x88cc, or rocewatch collect"};
}

// The last LLDP frame of the recording at `path`; nullopt without a recording (NotFound) or with
// an unreadable one (a finding says why).
std::optional<LldpFrame> FromRecording(const FileSystem& fs, const std::string& path,
                                       const std::string& netdev, std::vector<Finding>& findings) {
  StatusOr<std::vector<uint8_t>> bytes = ReadLldpRecording(fs, path);
  if (!bytes.ok()) {
    if (bytes.status().code() != StatusCode::kNotFound)
      findings.push_back(UnreadableRecording(netdev, bytes.status().ToString()));
    return std::nullopt;
  }
  StatusOr<LldpFrame> frame = ParseLldpFrame(*bytes);
  if (!frame.ok()) {
    findings.push_back(UnreadableRecording(
        netdev, path + ": not a valid LLDP frame: " + frame.status().message()));
    return std::nullopt;
  }
  return std::move(frame).value();
}

}  // namespace

RailNeighborLook LookUpRailNeighbors(const NodeSnapshot& snapshot,
                                     const std::vector<ExposedSample>* daemon_metrics,
                                     const FileSystem& fs, const HostPaths& paths) {
  const std::string& host_root = paths.host_root;
  RailNeighborLook look;
  std::map<std::string, LldpFrame> recorded;  // stable addresses for the checks below
  std::vector<std::pair<std::string, RailIdentity>> recorded_rails;
  for (const Device& device : snapshot.devices) {
    for (const Port& port : device.ports) {
      const std::string netdev = PrimaryNetdev(port);
      if (!port.IsRoce() || netdev.empty() || look.by_netdev.count(netdev)) continue;
      if (daemon_metrics != nullptr) {
        if (std::optional<NeighborLabels> labels = FromDaemon(*daemon_metrics, netdev)) {
          look.by_netdev[netdev] = {"daemon", std::move(*labels)};
          continue;
        }
      }
      std::optional<LldpFrame> frame =
          FromRecording(fs, LldpRecordingPath(host_root, netdev), netdev, look.findings);
      if (!frame) continue;
      look.by_netdev[netdev] = {"recording", LabelsOf(*frame)};
      recorded[netdev] = std::move(*frame);
      recorded_rails.push_back({netdev, {netdev, device.name, port.number, 0}});
    }
  }
  if (recorded.empty()) return look;
  FabricObservation fabric;
  std::vector<CabledRail> cabled;
  // The recorded host's own side: its MTUs, and its PFC from the recorded DCB answers (a bundle
  // without them leaves the host's PFC unknown).
  HostPfcReader host_pfc = HostPfcFromAnswers(DcbRecordingsFirst(nullptr, fs, host_root));
  for (const auto& [netdev, identity] : recorded_rails) {
    const LldpFrame* frame = &recorded.at(netdev);
    std::optional<uint8_t> host_pfc_enabled;
    StatusOr<std::optional<HostPfc>> pfc = host_pfc(netdev);
    if (pfc.ok() && pfc->has_value()) {
      host_pfc_enabled = (*pfc)->enabled;
    } else if (!pfc.ok() && pfc.status().code() != StatusCode::kNotFound) {
      look.findings.push_back({SeverityOf("read_failed"), "read_failed", netdev,
                               netdev + ": the recorded DCB answer could not be read (" +
                                   pfc.status().ToString() + "): the host's PFC is unknown",
                               "record it again with rocewatch collect on the host"});
    }
    fabric.rails.push_back({netdev, identity.device + "/" + std::to_string(identity.port), frame,
                            ReadNetdevMtu(fs, paths, netdev), host_pfc_enabled});
    cabled.push_back({identity, frame});
  }
  NumberRails(cabled);
  for (std::vector<Finding> found :
       {CheckFabric(fabric), CheckRailCabling({std::move(cabled), nullptr, ""}).findings})
    look.findings.insert(look.findings.end(), found.begin(), found.end());
  return look;
}

}  // namespace rocewatch
