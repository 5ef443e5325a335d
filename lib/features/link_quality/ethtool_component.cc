#include "link_quality/ethtool_component.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "link_quality/ethtool_samples.h"
#include "model/check_policy.h"

namespace rocewatch {

EthtoolComponent::EthtoolComponent(EthtoolOptions options, const FileSystem& fs,
                                   const HostPaths& paths, EthtoolSources sources,
                                   EthtoolReadDeadline deadline)
    : options_(options),
      statistics_error_(sources.statistics_error),
      netlink_error_(sources.netlink_error),
      runner_(std::move(sources), std::move(deadline)),
      files_(runner_.FilesThrough(fs)),
      paths_(paths),
      link_quality_(options.link_quality),
      pfc_(options.pfc) {}

StateDeclaration EthtoolComponent::declaration() const {
  StateDeclaration declared;
  declared.provides = {StatePart::kLinkDownReasons};
  declared.reads = {StatePart::kRnicNetdevs, StatePart::kNetdevLinks};
  if (keep_incidents_) {
    declared.provides.Add(StatePart::kLinkVerdicts);
    declared.reads.Add(StatePart::kRestoredIncidents);
  }
  return declared;
}

void EthtoolComponent::ResumeVerdicts(MonitorContext& ctx) {
  const std::optional<RestoredIncidents>* restored = ctx.state().restored_incidents();
  if (restored == nullptr || !*restored) return;
  RestoreVerdicts(LinkVerdictsOf((*restored)->incidents));
  std::set<std::string> optics;  // netdevs with an optics finding open before the restart
  for (const auto& [key, since] : (*restored)->incidents.finding_since)
    if (key.first.rfind("optics_", 0) == 0) optics.insert(key.second);
  ReadModulesFirst(std::move(optics));
}

Status EthtoolComponent::Start(MonitorContext& ctx) {
  (void)ctx.state_writer().SetLinkDownReasons(this);
  if (!statistics_error_.empty())
    spdlog::warn("ethtool: driver statistics unavailable ({}); recordings only", statistics_error_);
  if (!netlink_error_.empty())
    spdlog::warn("ethtool: netlink unavailable ({}); recordings only", netlink_error_);
  poller_ = std::make_unique<EthtoolPoller>(*files_, paths_.host_root, paths_.sysfs_root,
                                            runner_.statistics(), runner_.netlink());
  if (keep_incidents_) {
    ResumeVerdicts(ctx);
    (void)ctx.state_writer().SetLinkVerdicts(PersistedLinkVerdictsOf(ExportVerdicts()));
  }
  return Status::Ok();
}

void EthtoolComponent::Stop(MonitorContext& ctx) {
  (void)ctx.state_writer().SetLinkDownReasons(nullptr);
  runner_.Stop();
}

std::string EthtoolComponent::LinkDownReason(const std::string& netdev) {
  return poller_ ? poller_->LinkDownReason(netdev) : "";
}

void EthtoolComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  (void)snapshot;
  if (!poller_ || !options_.enabled) return;
  const MonoTime now = ctx.clock().Now();
  if (!last_counters_ || now - *last_counters_ >= options_.interval) {
    PollCounters(ctx, now);
    if (keep_incidents_)
      (void)ctx.state_writer().SetLinkVerdicts(PersistedLinkVerdictsOf(ExportVerdicts()));
  }
  if (options_.optics_interval > Duration::zero()) PollOptics(ctx, now);
}

void EthtoolComponent::PollCounters(MonitorContext& ctx, MonoTime now) {
  last_counters_ = now;
  const std::set<std::string>* rnic_netdevs = ctx.state().rnic_netdevs();
  latest_ = poller_->Poll(rnic_netdevs ? *rnic_netdevs : std::set<std::string>{});
  std::map<std::string, LinkQualitySample> quality_samples;
  std::map<std::string, PfcSample> pfc_samples;
  const std::map<std::string, NetdevState>* links = ctx.state().netdev_links();
  uint64_t errors = 0;
  for (auto it = latest_.begin(); it != latest_.end();) {
    const NetdevEthtool& readings = it->second;
    errors += readings.errors.size();
    if (!readings.present) {  // not in this namespace: nothing to say about it
      it = latest_.erase(it);
      continue;
    }
    std::optional<bool> carrier;
    if (links)
      if (auto n = links->find(it->first); n != links->end()) carrier = n->second.carrier;
    quality_samples[it->first] = LinkQualitySampleFrom(now, readings, carrier);
    pfc_samples[it->first] = PfcSampleFrom(now, readings);
    ++it;
  }
  if (errors > 0) ctx.CountSourceError("ethtool", errors);
  link_quality_.Observe(quality_samples);
  pfc_.Observe(pfc_samples);

  // Link quality changes and storms starting or ending are events.
  for (const auto& [netdev, status] : link_quality_.netdevs()) {
    LinkQualityState& reported = reported_quality_[netdev];
    if (status.state == reported) continue;
    std::string what = netdev + " link quality " + LinkQualityStateLabel(reported) + " -> " +
                       LinkQualityStateLabel(status.state);
    if (!status.reason.empty()) what += ": " + status.reason;
    if (restored_quality_.erase(netdev) > 0)
      what += " (restored at start, judged on live counters)";
    ctx.RecordEvent(what, status.state > reported ? Severity::kWarning : Severity::kInfo);
    reported = status.state;
  }
  for (const auto& [key, status] : pfc_.priorities()) {
    bool& reported = reported_storm_[key];
    if (status.storm == reported) continue;
    reported = status.storm;
    ctx.RecordEvent(
        key.netdev + " PFC storm " + (status.storm ? "started" : "ended") + " on priority " +
            std::to_string(key.priority) + " (" +
            (key.direction == PauseDirection::kTx ? "this host sends pause"
                                                  : "the fabric pauses this host") +
            ")" +
            (restored_storms_.erase(key) > 0 ? " (restored at start, judged on live counters)"
                                             : ""),
        status.storm ? Severity::kWarning : Severity::kInfo);
  }
  // Restored verdicts the live counters confirmed are ordinary ones from now on.
  std::erase_if(restored_quality_,
                [&](const std::string& netdev) { return !link_quality_.Resumed(netdev); });
  std::erase_if(restored_storms_, [&](const PfcKey& key) {
    auto it = pfc_.priorities().find(key);
    return it == pfc_.priorities().end() || it->second.paused_fraction.has_value();
  });
  ctx.RequestPublish();
}

LinkVerdicts EthtoolComponent::ExportVerdicts() const {
  return {link_quality_.Verdicts(), pfc_.Storms()};
}

void EthtoolComponent::RestoreVerdicts(Verdicts verdicts) {
  for (const auto& [netdev, verdict] : verdicts.link_quality) {
    reported_quality_[netdev] = verdict.state;
    restored_quality_.insert(netdev);
  }
  for (const PfcKey& key : verdicts.pfc.storms) {
    reported_storm_[key] = true;
    restored_storms_.insert(key);
  }
  link_quality_.Resume(std::move(verdicts.link_quality));
  pfc_.Resume(std::move(verdicts.pfc));
}

void EthtoolComponent::PollOptics(MonitorContext& ctx, MonoTime now) {
  // Module pages come over I2C, slowly: at most one module per snapshot (the most overdue one),
  // so that reading 16 modules never holds the loop for all of them at once.
  for (auto it = last_module_read_.begin(); it != last_module_read_.end();) {
    if (latest_.count(it->first)) {
      ++it;
      continue;
    }
    modules_.erase(it->first);  // gone, or no longer present here
    optics_.erase(it->first);
    it = last_module_read_.erase(it);
  }
  const std::string* due = nullptr;
  std::optional<MonoTime> due_since;
  for (const auto& [netdev, readings] : latest_) {
    auto last = last_module_read_.find(netdev);
    if (last != last_module_read_.end() && now - last->second < options_.optics_interval) continue;
    const std::optional<MonoTime> since =
        last == last_module_read_.end() ? std::nullopt : std::optional<MonoTime>(last->second);
    if (!due || (due_since && (!since || *since < *due_since))) {
      due = &netdev;
      due_since = since;
    }
  }
  // After a restart, the modules of open optics findings first, all at once (a handful at most).
  const std::set<std::string> first = std::exchange(modules_first_, {});
  for (const std::string& netdev : first) {
    reported_optics_findings_[netdev] = 1;  // open before the restart: no new event for them
    if (latest_.count(netdev) && !(due && *due == netdev)) ReadModule(ctx, netdev, now);
  }
  if (due) ReadModule(ctx, *due, now);
}

void EthtoolComponent::ReadModule(MonitorContext& ctx, const std::string& netdev, MonoTime now) {
  last_module_read_[netdev] = now;
  ModuleOutcome outcome = poller_->PollModule(netdev);
  // A module that fails a read (as modules do while they flap) is counted, never a finding; a
  // read the kernel refuses for lack of a privilege is a finding (optics_not_permitted), logged
  // once per netdev: it will not heal by itself.
  if (!outcome.error.empty()) ctx.CountSourceError("ethtool_module", 1);
  auto previous = modules_.find(netdev);
  if (outcome.not_permitted && (previous == modules_.end() || !previous->second.not_permitted))
    spdlog::warn("optics of {} cannot be read: {}", netdev, outcome.error);
  if (outcome.module) {
    OpticsStatus status = EvaluateOptics(*outcome.module);
    const size_t count = status.violations.size() + status.dark_lanes.size();
    size_t& reported = reported_optics_findings_[netdev];
    if (count > 0 && reported == 0)
      for (const Finding& f : OpticsFindings(netdev, status))
        ctx.RecordEvent(netdev + " " + f.message, f.severity);
    reported = count;
    optics_[netdev] = std::move(status);
  } else {
    optics_.erase(netdev);
  }
  if (!outcome.unsupported || outcome.module) {
    modules_[netdev] = std::move(outcome);
  } else {
    modules_.erase(netdev);
  }
  ctx.RequestPublish();
}

void EthtoolComponent::AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const {
  (void)ctx;
  for (Finding& f : link_quality_.Findings()) out.push_back(std::move(f));
  for (Finding& f : pfc_.Findings()) out.push_back(std::move(f));
  for (const auto& [netdev, readings] : latest_)
    if (std::optional<Finding> failed = EthtoolReadFailure(netdev, readings))
      out.push_back(std::move(*failed));
  for (const auto& [netdev, status] : optics_)
    for (Finding& f : OpticsFindings(netdev, status)) out.push_back(std::move(f));
  for (const auto& [netdev, outcome] : modules_) {
    if (!outcome.not_permitted) continue;
    out.push_back({SeverityOf("optics_not_permitted"), "optics_not_permitted", netdev,
                   "the kernel refuses to read the transceiver's pages: " + outcome.error +
                       "; optics (temperature, optical power, lanes) are not watched",
                   "Grant rocewatch CAP_NET_ADMIN (the shipped DaemonSet and systemd unit do; "
                   "docs/deploy.md, \"Privileges, measured\"), or turn optics reads off with "
                   "--optics-interval 0 to silence this."});
  }
}

bool EthtoolComponent::Healthy(const MonitorContext& ctx) const {
  (void)ctx;
  for (const auto& [netdev, readings] : latest_)
    if (!readings.errors.empty()) return false;
  return true;
}

std::vector<LinkQualityEntry> EthtoolComponent::ReportEntries() const {
  std::vector<LinkQualityEntry> entries;
  for (const auto& [netdev, readings] : latest_) {
    LinkQualityEntry e;
    e.netdev = netdev;
    e.readings = readings;
    if (auto q = link_quality_.netdevs().find(netdev); q != link_quality_.netdevs().end())
      e.quality = q->second;
    for (const auto& [key, status] : pfc_.priorities())
      if (key.netdev == netdev) e.pfc.emplace_back(key, status);
    if (auto m = modules_.find(netdev); m != modules_.end()) e.module = m->second;
    if (auto o = optics_.find(netdev); o != optics_.end()) e.optics = o->second;
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace rocewatch
