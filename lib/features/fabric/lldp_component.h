#pragma once
// Each rail's LLDP neighbor in the daemon (docs/detection.md, "Fabric: the rail's LLDP
// neighbor"): opens a receive-only LLDP socket on every RNIC port netdev the snapshot names (and
// closes those of netdevs that went), reads them on the event loop, keeps the neighbor table,
// reports new, changed and expired neighbors as events, exports rocewatch_rail_neighbor_* and
// rocewatch_lldp_frames_* and rocewatch_rail_cabled_as_planned, and reports the fabric checks
// (fabric/fabric_checks.h) and the rail cabling checks (fabric/rail_cabling_checks.h) as findings.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "component/monitor_component.h"
#include "fabric/lldp_neighbor_table.h"
#include "fabric/lldp_options.h"
#include "fabric/rail_cabling_checks.h"
#include "lldp/lldp_socket.h"
#include "netlink/dcb_pfc.h"

namespace rocewatch {

// How often the host's PFC configuration of each rail is read (DCB netlink; it changes only when
// an operator or a DCBX exchange changes it).
inline constexpr Duration kHostPfcEvery = std::chrono::seconds(60);

class LldpComponent final : public MonitorComponent {
 public:
  // A netdev's MTU (sysfs class/net/<netdev>/mtu), nullopt when unreadable.
  using MtuReader = std::function<std::optional<int>(const std::string& netdev)>;
  // `open` makes the socket of one netdev (HostEnv::lldp); `read_mtu` is asked when a rail's
  // neighbor arrives or changes.
  // `read_pfc` (null: not read) gives the host's own PFC configuration of each rail, read every
  // kHostPfcEvery.
  LldpComponent(LldpOptions options, LldpSocketOpener open, MtuReader read_mtu,
                HostPfcReader read_pfc = nullptr);

  // Keep each rail's far end across a restart: provide them on the node state (kFarEnds, which
  // the state file keeps) and, at Start, take those of a previous run (kRestoredIncidents,
  // provided by the GID drift component: RestoreFarEnds). REQUIRES: before Monitor::Start.
  void KeepIncidents() { keep_incidents_ = true; }

  std::string_view name() const override { return "lldp"; }
  StateDeclaration declaration() const override;
  Status Start(MonitorContext& ctx) override;
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;
  void Stop(MonitorContext& ctx) override;

  const LldpNeighborTable& table() const { return table_; }
  // The RDMA port of each rail netdev, as of the last snapshot.
  const std::map<std::string, std::pair<std::string, uint32_t>>& rails() const { return rails_; }
  // A rail's last far end, kept across a restart of the daemon.
  struct KeptFarEnd {
    std::vector<uint8_t> frame;  // as received
    MonoTime last_seen{};        // its last frame
  };
  // The last far end of every rail: the current neighbor, or the one it had before it expired
  // or left.
  std::map<std::string, KeptFarEnd> ExportFarEnds() const;
  // Far ends from before a restart, applied after the first snapshot named the rails: a rail
  // that no longer exists is dropped; for the others the far end is the one a new frame is
  // compared with (so a rail recabled while the daemon was down is reported changed), and it is
  // the current neighbor again while its TTL, from its last frame, has not passed (the fabric
  // checks judge it at once, not ~30 s later at the next frame).
  void RestoreFarEnds(std::map<std::string, KeptFarEnd> far_ends);

  // Reads every open socket now (the loop does it when one is readable; a socket without a
  // descriptor, as a fake has, is read on every snapshot).
  void ReadAll(MonitorContext& ctx);

 private:
  struct Receiver {
    std::unique_ptr<LldpSocket> socket;
    std::optional<MonoTime> retry_at;  // set while the socket could not be opened
    std::string error;
  };
  void OnSnapshotEnabled(MonitorContext& ctx, const NodeSnapshot& snapshot);
  void Reconcile(MonitorContext& ctx, const NodeSnapshot& snapshot);
  bool SameRails(const NodeSnapshot& snapshot) const;
  void Open(MonitorContext& ctx, const std::string& netdev, Receiver& receiver);
  void Read(MonitorContext& ctx, const std::string& netdev, Receiver& receiver);
  void ReportChanges(MonitorContext& ctx);
  void ApplyRestoredFarEnds(MonitorContext& ctx);
  void ProvideFarEnds(MonitorContext& ctx);
  void ReadHostPfc(MonitorContext& ctx);
  // Each rail's neighbor against the rail plan, or the layout inferred without one.
  RailCablingResult CheckCabling() const;

  const LldpOptions options_;
  LldpSocketOpener open_;
  MtuReader read_mtu_;
  HostPfcReader read_pfc_;
  struct HostPfcState {
    std::optional<HostPfc> pfc;  // nullopt: no DCB, or the last read failed (unknown)
    std::optional<MonoTime> read_at;
  };
  std::map<std::string, HostPfcState> host_pfc_;    // by rail netdev
  std::map<std::string, std::optional<int>> mtus_;  // read when the neighbor arrived or changed
  std::optional<MonoTime> listening_since_;         // the first socket opened
  std::map<std::string, Receiver> receivers_;       // by netdev
  std::map<std::string, std::pair<std::string, uint32_t>> rails_;  // netdev -> (device, port)
  LldpNeighborTable table_;
  std::map<std::string, LldpFrame> reported_;  // the current far end reported per netdev
  struct LastFarEnd {
    LldpFrame frame;
    KeptFarEnd kept;
  };
  std::map<std::string, LastFarEnd> last_far_end_;  // the last one, also after it went
  std::optional<std::map<std::string, KeptFarEnd>> restored_far_ends_;  // until applied
  bool keep_incidents_ = false;
  // The findings while there are neighbors, until something they depend on changes.
  mutable std::optional<std::vector<Finding>> cached_findings_;
};

}  // namespace rocewatch
