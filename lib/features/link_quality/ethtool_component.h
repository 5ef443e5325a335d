#pragma once
// Link quality and the lossless fabric in the daemon (docs/detection.md): polls the RNIC netdevs'
// ethtool interfaces (or their recordings) every `interval`, their modules every
// `optics_interval` (one module per snapshot: I2C is slow), feeds the link-quality and PFC-storm
// detectors and the optics checks, exports rocewatch_netdev_fec_*, rocewatch_netdev_pre_fec_ber,
// rocewatch_netdev_pfc_*, rocewatch_link_quality_state and rocewatch_module_*, reports state
// changes as events, and provides on the node state the service that says why a link went down
// (for the netlink component's carrier-down events).

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "component/monitor_component.h"
#include "ethtool/ethtool_poller.h"
#include "ethtool/ethtool_sources.h"
#include "link_quality/ethtool_options.h"
#include "link_quality/ethtool_read_runner.h"
#include "link_quality/link_quality_report.h"
#include "link_quality/link_verdicts.h"
#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

class EthtoolComponent final : public MonitorComponent, public LinkDownReasonSource {
 public:
  // `sources` opened (HostEnv::ethtool); a null source leaves recordings as the only input (its
  // error is logged at Start). Their calls run on the component's reading thread behind
  // `deadline` (link_quality/ethtool_read_runner.h). REQUIRES: fs outlives the component and
  // its reading threads given up on (its file reads are made on them too).
  EthtoolComponent(EthtoolOptions options, const FileSystem& fs, const HostPaths& paths,
                   EthtoolSources sources, EthtoolReadDeadline deadline = {});

  std::string_view name() const override { return "ethtool"; }
  // Provides kLinkDownReasons (itself, from Start to Stop); reads the RNIC netdevs and the netdev
  // links (a link's carrier). With KeepIncidents, also provides kLinkVerdicts and reads
  // kRestoredIncidents.
  StateDeclaration declaration() const override;
  // Starts the reading thread; Stop joins it (never one given up on: that one was detached).
  Status Start(MonitorContext& ctx) override;
  void Stop(MonitorContext& ctx) override;
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;
  // False while the latest poll of any netdev had a failed request (read_failed names them).
  bool Healthy(const MonitorContext& ctx) const override;

  // Why `netdev`'s link is down, from a fresh LINKSTATE read ("" when the driver does not say,
  // or does not answer within the read deadline).
  std::string LinkDownReason(const std::string& netdev) override;
  // The diagnose section for the current state.
  std::vector<LinkQualityEntry> ReportEntries() const;
  // The detectors' windowed verdicts (the daemon's GET /api/v1/state).
  const LinkQualityDetector& link_quality() const { return link_quality_; }
  const PfcStormDetector& pfc() const { return pfc_; }
  // When each netdev's module was last read (tried: a read that failed counts), and how often
  // modules are read (zero: never, also with the component off): the daemon's GET /api/v1/state,
  // so that a one-shot diagnose does not read them again in between.
  const std::map<std::string, MonoTime>& module_reads() const { return last_module_read_; }
  Duration optics_interval() const {
    return options_.enabled ? options_.optics_interval : Duration::zero();
  }

  // Keep the verdicts across a restart: provide them on the node state (kLinkVerdicts, which the
  // state file keeps) and, at Start, resume those of a previous run (kRestoredIncidents, provided
  // by the GID drift component: RestoreVerdicts, and ReadModulesFirst for the netdevs whose
  // optics findings were open). REQUIRES: before Monitor::Start.
  void KeepIncidents() { keep_incidents_ = true; }

  // The link-quality and PFC-storm verdicts.
  using Verdicts = LinkVerdicts;
  Verdicts ExportVerdicts() const;
  // Verdicts from before a restart, held by the detectors until their live counters judge again
  // (LinkQualityDetector::Resume, PfcStormDetector::Resume): no event at start; when one changes,
  // its event ends "(restored at start, judged on live counters)".
  void RestoreVerdicts(Verdicts verdicts);
  // Netdevs whose optics findings were open before a restart: their modules are all read at the
  // first optics poll, ahead of the one-module-per-poll order, so that their out-of-range series
  // and findings are back by the first scrape rather than up to a poll per rail later.
  // REQUIRES: before the first snapshot.
  void ReadModulesFirst(std::set<std::string> netdevs) { modules_first_ = std::move(netdevs); }

 private:
  void PollCounters(MonitorContext& ctx, MonoTime now);
  void PollOptics(MonitorContext& ctx, MonoTime now);
  void ReadModule(MonitorContext& ctx, const std::string& netdev, MonoTime now);
  // AppendMetrics' parts (link_quality/ethtool_metrics.cc).
  void AppendCounterMetrics(MetricFamilies& out) const;
  void AppendVerdictMetrics(MetricFamilies& out) const;
  void AppendOpticsMetrics(MetricFamilies& out) const;
  void ResumeVerdicts(MonitorContext& ctx);

  const EthtoolOptions options_;
  const std::string statistics_error_;
  const std::string netlink_error_;
  EthtoolReadRunner runner_;  // before poller_, which uses its sources
  // The poller's file reads (class/net/<netdev>/speed, recordings), made on runner_'s thread.
  const std::unique_ptr<FileSystem> files_;
  std::unique_ptr<EthtoolPoller> poller_;
  const HostPaths paths_;

  LinkQualityDetector link_quality_;
  PfcStormDetector pfc_;
  std::map<std::string, NetdevEthtool> latest_;
  std::map<std::string, ModuleOutcome> modules_;
  std::map<std::string, OpticsStatus> optics_;
  std::optional<MonoTime> last_counters_;
  std::map<std::string, MonoTime> last_module_read_;  // per netdev
  std::map<std::string, LinkQualityState> reported_quality_;
  std::map<PfcKey, bool> reported_storm_;
  std::set<std::string> restored_quality_;  // until judged on live counters
  std::set<PfcKey> restored_storms_;
  std::map<std::string, size_t> reported_optics_findings_;
  std::set<std::string> modules_first_;  // read at the first optics poll (ReadModulesFirst)
  bool keep_incidents_ = false;
};

}  // namespace rocewatch
