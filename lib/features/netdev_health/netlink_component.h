#pragma once
// The netlink listener as a daemon component: follows the RNIC netdevs through rtnetlink, keeps
// the node state's netdev links current (other components read carrier from them), asks for a GID
// snapshot after link and address events of RNIC netdevs (the kernel rewrites GID tables after
// address events), reports flaps and address changes as events, and contributes the netdev
// metrics and findings (docs/netlink.md).
// Threading: event-loop thread only (MonitorComponent).

#include <memory>
#include <string>

#include "component/monitor_component.h"
#include "netdev_health/netdev_health.h"
#include "netdev_health/netlink_listener.h"
#include "netlink/rtnetlink_source.h"

namespace rocewatch {

struct NetlinkComponentOptions {
  NetdevHealthConfig health;
  // Ask the node state's LinkDownReasonSource (the ethtool component provides it) why a link went
  // down when a carrier-down event is reported, and append the reason to its line. The reason is
  // asked at the event, between polls: the read is declared reads_previous, so it orders nothing
  // (the ethtool component itself reads the netdev links this component provides).
  bool link_down_reasons = false;
};

class NetlinkComponent final : public MonitorComponent {
 public:
  using Options = NetlinkComponentOptions;

  // Start() opens `source` (HostEnv::rtnetlink) in the calling thread's network namespace.
  // REQUIRES: source is not null.
  NetlinkComponent(Options options, std::unique_ptr<RtnetlinkSource> source);
  ~NetlinkComponent() override;

  // Keep the open netdev incidents across a restart: provide them on the node state
  // (kNetdevIncidents, which the state file keeps) and resume those of a previous run
  // (kRestoredIncidents, provided by the GID drift component) at the first snapshot, once the
  // RNIC netdevs are known. REQUIRES: before Monitor::Start.
  void KeepIncidents() { keep_incidents_ = true; }

  std::string_view name() const override { return "netlink"; }
  StateDeclaration declaration() const override;
  Status Start(MonitorContext& ctx) override;
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;
  void Stop(MonitorContext& ctx) override;

  // REQUIRES: Start() succeeded.
  const NetlinkListener& listener() const { return *listener_; }

  // The open netdev incidents; empty before Start() succeeded.
  std::map<std::string, NetdevIncidents> ExportIncidents() const;

 private:
  // Judges the restored incidents against the live netdevs at once; reports each healed or
  // dropped one as an event.
  void ResumeIncidents(MonitorContext& ctx);
  void ProvideIncidents(MonitorContext& ctx);
  void OnChanges(MonitorContext& ctx, const std::vector<NetdevChange>& changes,
                 const std::vector<NetdevNarration>& narration);

  const Options options_;
  std::unique_ptr<RtnetlinkSource> source_;
  std::unique_ptr<NetlinkListener> listener_;
  uint64_t errors_reported_ = 0;
  bool keep_incidents_ = false;
  bool resumed_ = false;  // the restored incidents were judged (or there were none)
  RestoreCounts restore_counts_;
};

}  // namespace rocewatch
