#include "netdev_health/netlink_component.h"

#include <cmath>

#include "netdev_health/netdev_metrics.h"

namespace rocewatch {
namespace {

constexpr size_t kMaxRoutineNarrationsPerRead = 16;

}  // namespace

NetlinkComponent::NetlinkComponent(Options options, std::unique_ptr<RtnetlinkSource> source)
    : options_(options), source_(std::move(source)) {}

NetlinkComponent::~NetlinkComponent() = default;

StateDeclaration NetlinkComponent::declaration() const {
  StateDeclaration declared;
  declared.provides = {StatePart::kNetdevLinks};
  declared.reads = {StatePart::kRnicNetdevs};
  if (options_.link_down_reasons) declared.reads_previous.Add(StatePart::kLinkDownReasons);
  if (keep_incidents_) {
    declared.provides.Add(StatePart::kNetdevIncidents);
    declared.reads.Add(StatePart::kRestoredIncidents);
  }
  return declared;
}

Status NetlinkComponent::Start(MonitorContext& ctx) {
  const std::set<std::string>* rnic_netdevs = ctx.state().rnic_netdevs();
  listener_ = std::make_unique<NetlinkListener>(
      *source_, ctx.clock(), rnic_netdevs ? *rnic_netdevs : std::set<std::string>{},
      options_.health);
  listener_->set_on_changes([this, &ctx](const auto& changes, const auto& narration) {
    OnChanges(ctx, changes, narration);
  });
  Status started = listener_->Start(ctx.loop());
  if (!started.ok()) {
    listener_.reset();
    return started;
  }
  (void)ctx.state_writer().SetNetdevLinks(listener_->tracker().RnicStates());
  return Status::Ok();
}

void NetlinkComponent::OnChanges(MonitorContext& ctx, const std::vector<NetdevChange>& changes,
                                 const std::vector<NetdevNarration>& narration) {
  // Every change is narrated, but of the routine ones (address churn) only the first few of a
  // read: a storm of 50k address events must not become 50k log lines.
  size_t routine = 0;
  for (const NetdevNarration& n : narration) {
    if (n.routine && ++routine > kMaxRoutineNarrationsPerRead) continue;
    std::string reason;
    LinkDownReasonSource* reasons =
        options_.link_down_reasons ? ctx.state().link_down_reasons() : nullptr;
    if (reasons && n.text.rfind("carrier down", 0) == 0) reason = reasons->LinkDownReason(n.netdev);
    ctx.RecordEvent(
        n.netdev + ": " + n.text + (reason.empty() ? "" : ", link_ext_state: " + reason),
        n.severity);
  }
  if (routine > kMaxRoutineNarrationsPerRead)
    ctx.RecordEvent(std::to_string(routine - kMaxRoutineNarrationsPerRead) +
                        " more address changes in this netlink read, not listed one by one",
                    Severity::kInfo);
  bool gids_may_move = false;
  for (const NetdevChange& c : changes)
    gids_may_move = gids_may_move || c.kind != NetdevChange::Kind::kRouting;
  (void)ctx.state_writer().SetNetdevLinks(listener_->tracker().RnicStates());
  if (gids_may_move) ctx.RequestSnapshot("netlink");
  uint64_t errors = listener_->errors();
  if (errors > errors_reported_) ctx.CountSourceError("netlink", errors - errors_reported_);
  errors_reported_ = errors;
  ctx.RequestPublish();
}

std::map<std::string, NetdevIncidents> NetlinkComponent::ExportIncidents() const {
  return listener_ ? listener_->health().ExportIncidents()
                   : std::map<std::string, NetdevIncidents>{};
}

void NetlinkComponent::ResumeIncidents(MonitorContext& ctx) {
  resumed_ = true;
  const std::optional<RestoredIncidents>* restored = ctx.state().restored_incidents();
  if (restored == nullptr || !*restored) return;
  std::map<std::string, NetdevIncidents> saved;
  for (const auto& [name, n] : (*restored)->incidents.netdevs) {
    NetdevIncidents& into = saved[name];
    for (const auto& [address, since] : n.missing_addresses)
      into.missing_addresses[address] = MonoTimeAt(ctx.clock(), since);
    into.policy.rules = n.expected_rules;
    into.policy.missing = n.missing_rules;
  }
  NetdevRestoreOutcome outcome = listener_->RestoreIncidents(saved);
  for (const NetdevNarration& n : outcome.narration)
    ctx.RecordEvent(n.netdev + ": " + n.text, n.severity);
  restore_counts_ = std::move(outcome.counts);
  ctx.RequestPublish();
}

void NetlinkComponent::ProvideIncidents(MonitorContext& ctx) {
  KeptNetdevIncidents kept;
  kept.restored = restore_counts_;
  for (const auto& [name, n] : ExportIncidents()) {
    PersistedNetdevIncidents& into = kept.netdevs[name];
    for (const auto& [address, since] : n.missing_addresses)
      into.missing_addresses[address] = std::round(UnixSecondsAt(ctx.clock(), since));
    into.expected_rules = n.policy.rules;
    into.missing_rules = n.policy.missing;
  }
  (void)ctx.state_writer().SetNetdevIncidents(std::move(kept));
}

void NetlinkComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  (void)snapshot;
  const std::set<std::string>* rnic_netdevs = ctx.state().rnic_netdevs();
  if (listener_ && rnic_netdevs) listener_->SetRnicNetdevs(*rnic_netdevs);
  if (!keep_incidents_ || !listener_) return;
  if (!resumed_) ResumeIncidents(ctx);
  ProvideIncidents(ctx);
}

void NetlinkComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  (void)ctx;
  if (listener_) AppendNetdevMetrics(*listener_, out);
}

void NetlinkComponent::AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const {
  if (listener_) listener_->health().AppendFindings(ctx.clock().Now(), out);
}

void NetlinkComponent::Stop(MonitorContext& ctx) {
  if (!listener_) return;
  // What changed since the last poll (events) is in the state file written after this.
  if (keep_incidents_) ProvideIncidents(ctx);
  listener_->Stop();
}

}  // namespace rocewatch
