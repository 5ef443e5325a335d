#include "daemon/monitor.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "build_info.h"
#include "component/component_order.h"
#include "daemon/daemon_metric_names.h"
#include "model/rnic_netdevs.h"

namespace rocewatch {

const std::vector<double>& PollDurationBounds() {
  static const std::vector<double> bounds = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                             0.05,   0.1,   0.25,   0.5,   1.0,  2.5};
  return bounds;
}

namespace {

// The parts the Monitor writes itself, before any component runs.
const StateParts kMonitorParts = {StatePart::kSnapshot, StatePart::kRnicNetdevs};

StateDeclaration AllReads() {
  StateDeclaration all;
  for (size_t i = 0; i < kStatePartCount; ++i) all.reads_previous.Add(static_cast<StatePart>(i));
  return all;
}

}  // namespace

Monitor::Monitor(EventLoop& loop, SnapshotSource& source, MonitorOptions options)
    : loop_(loop),
      source_(source),
      options_(options),
      view_(state_, AllReads(), "monitor"),
      writer_(state_, {}, "monitor"),
      poll_duration_buckets_(PollDurationBounds().size(), 0) {}

Monitor::~Monitor() {
  Stop();
  for (EventLoop::TimerId id : {requested_timer_, periodic_timer_, publish_timer_})
    loop_.Cancel(id);
}

void Monitor::AddComponent(std::unique_ptr<MonitorComponent> component) {
  contexts_.push_back(
      std::make_unique<ComponentContext>(*this, state_, std::string(component->name())));
  components_.push_back(std::move(component));
  component_started_.push_back(false);
  component_health_.push_back({});
}

Status Monitor::OrderComponents() {
  std::vector<DeclaredComponent> declared;
  for (const auto& component : components_)
    declared.push_back({std::string(component->name()), component->declaration()});
  StatusOr<std::vector<size_t>> order = rocewatch::OrderComponents(declared, kMonitorParts);
  if (!order.ok()) return order.status();
  order_ = std::move(*order);
  for (size_t i = 0; i < components_.size(); ++i) contexts_[i]->Declare(declared[i].declaration);
  return Status::Ok();
}

Status Monitor::Start() {
  Status ordered = OrderComponents();
  if (!ordered.ok()) return ordered;
  for (size_t i : order_) {
    Status status = components_[i]->Start(*contexts_[i]);
    component_started_[i] = status.ok();
    component_health_[i].success = status.ok();
    if (!status.ok()) {
      spdlog::warn("component {} disabled: {}", components_[i]->name(), status.ToString());
      CountSourceError(components_[i]->name(), 1);
    }
  }
  started_ = true;
  Status first = PollNow("start");
  if (!first.ok()) return first;
  SchedulePeriodic(clock().Now() + options_.interval);
  return Status::Ok();
}

void Monitor::Stop() {
  if (!started_) return;
  started_ = false;
  for (auto it = order_.rbegin(); it != order_.rend(); ++it)
    if (component_started_[*it]) components_[*it]->Stop(*contexts_[*it]);
}

void Monitor::SchedulePeriodic(MonoTime at) {
  next_periodic_ = at;
  periodic_timer_ = loop_.ScheduleAt(at, [this] {
    (void)Poll("interval", SnapshotTrigger::kPeriodic);
    // Keep a steady cadence; if a poll overran whole intervals, skip them rather than burst.
    MonoTime next = next_periodic_ + options_.interval;
    MonoTime now = clock().Now();
    if (next <= now) next = now + options_.interval;
    SchedulePeriodic(next);
  });
}

void Monitor::RequestSnapshot(std::string_view reason) {
  if (loop_.IsScheduled(requested_timer_)) return;  // coalesced into the pending one
  pending_reason_ = reason;
  requested_timer_ = loop_.ScheduleAfter(options_.settle, [this] {
    std::string reason = std::move(pending_reason_);
    pending_reason_.clear();
    source_.ExpectChange();
    (void)PollNow(reason);
  });
}

void Monitor::RequestPublish() {
  if (loop_.IsScheduled(publish_timer_)) return;
  publish_timer_ = loop_.ScheduleAfter(Duration::zero(), [this] { Publish(); });
}

void Monitor::CountSourceError(std::string_view source, uint64_t count) {
  auto it = source_errors_.find(source);
  if (it == source_errors_.end()) it = source_errors_.emplace(std::string(source), 0).first;
  source_errors_counted_ += count;
  it->second += count;
}

void Monitor::RecordEvent(std::string_view what, Severity severity) {
  recent_events_.push_back({clock().UnixSeconds(), severity, std::string(what)});
  if (recent_events_.size() > kRecentEvents) recent_events_.pop_front();
  if (change_sink_) change_sink_();
  // An observer (diagnose --watch) shows events itself; logging them too would print them twice.
  if (event_observer_) {
    event_observer_(clock().UnixSeconds(), what);
  } else if (severity >= Severity::kWarning) {
    spdlog::warn("{}", what);
  } else {
    spdlog::info("{}", what);
  }
}

Status Monitor::Poll(std::string_view reason, SnapshotTrigger trigger) {
  MonoTime begin = clock().Now();
  // The snapshot before last is overwritten: a node's snapshots have the same shape poll after
  // poll, so its strings, vectors and map nodes are reused (SnapshotSource::TakeInto).
  Status taken = source_.TakeInto(spare_);
  if (!taken.ok()) {
    CountSourceError(source_.gid_source_name(), 1);
    spdlog::warn("snapshot failed ({}): {}", reason, taken.ToString());
    Publish();
    return taken;
  }
  std::swap(state_.snapshot, spare_);
  const NodeSnapshot& latest = state_.snapshot;
  for (const auto& [source, errors] : latest.read_errors) CountSourceError(source, errors);

  // Rebuilt only when the inventory's netdevs changed (rarely: a device or VLAN came or went).
  const std::vector<std::string> rnic_netdevs = RnicNetdevs(latest, RnicNetdevScope::kAll);
  if (rnic_netdevs.size() != state_.rnic_netdevs.size() ||
      !std::all_of(rnic_netdevs.begin(), rnic_netdevs.end(),
                   [&](const std::string& n) { return state_.rnic_netdevs.count(n) != 0; }))
    state_.rnic_netdevs = std::set<std::string>(rnic_netdevs.begin(), rnic_netdevs.end());
  for (size_t i : order_) {
    if (!component_started_[i]) continue;
    const uint64_t errors_before = source_errors_counted_;
    const MonoTime component_begin = clock().Now();
    components_[i]->OnSnapshot(*contexts_[i], latest);
    component_health_[i].seconds = ToSeconds(clock().Now() - component_begin);
    component_health_[i].success =
        source_errors_counted_ == errors_before && components_[i]->Healthy(*contexts_[i]);
  }
  for (size_t i : order_)
    if (component_started_[i]) components_[i]->AfterPoll(*contexts_[i]);

  double seconds = ToSeconds(clock().Now() - begin);
  const std::vector<double>& bounds = PollDurationBounds();
  for (size_t i = 0; i < bounds.size(); ++i)
    if (seconds <= bounds[i]) ++poll_duration_buckets_[i];
  ++poll_duration_count_;
  poll_duration_sum_ += seconds;
  ++polls_;
  last_poll_unix_.store(clock().UnixSeconds(), std::memory_order_relaxed);
  if (observer_) observer_(latest, trigger);
  Publish();
  return Status::Ok();
}

void Monitor::Publish() {
  loop_.Cancel(publish_timer_);
  // Evaluated on every publish, not when the document is built: "since" is the first evaluation
  // that had the finding, however rarely the document is asked for.
  const double now = clock().UnixSeconds();
  timed_findings_.clear();
  std::map<std::pair<std::string, std::string>, double> since;
  for (Finding& f : CurrentFindings()) {
    std::pair<std::string, std::string> key{f.check, f.subject};
    auto it = finding_since_.find(key);
    double first = it != finding_since_.end() ? it->second : now;
    if (auto restored = restored_since_.find(key); restored != restored_since_.end()) {
      first = std::min(first, restored->second);
      restored_since_.erase(restored);  // kept in finding_since_ while the finding lasts
    }
    since.emplace(std::move(key), first);
    timed_findings_.push_back({std::move(f), first, now});
  }
  finding_since_ = std::move(since);  // a finding that went away starts afresh
  if (polls_ > 0 && !restored_since_.empty()) {
    if (!restored_until_) restored_until_ = now + kRestoredSinceGraceSeconds;
    if (now >= *restored_until_) restored_since_.clear();
  }
  if (change_sink_) change_sink_();
}

std::vector<prometheus::MetricFamily> Monitor::BuildExposition() const {
  MetricFamilies out;
  AppendOwnMetrics(out);
  for (size_t i = 0; i < components_.size(); ++i)
    if (component_started_[i]) components_[i]->AppendMetrics(*contexts_[i], out);
  return out.Take();
}

std::vector<Finding> Monitor::CurrentFindings() const {
  std::vector<Finding> findings;
  for (size_t i = 0; i < components_.size(); ++i)
    if (component_started_[i]) components_[i]->AppendFindings(*contexts_[i], findings);
  return findings;
}

void Monitor::AppendOwnMetrics(MetricFamilies& out) const {
  out.Gauge(kBuildInfoMetric, "rocewatch build information; always 1.",
            {{"version", kVersion}, {"revision", kGitRevision}}, 1);
  if (polls_ > 0) {
    out.Gauge(kLastPollTimestampMetric, "Unix time of the last completed poll of the RDMA devices.",
              {}, last_poll_unix());
  }
  std::vector<uint64_t> cumulative(poll_duration_buckets_.size());
  // Buckets were counted per bound (a sample counts in every bound it fits), so they are
  // cumulative already.
  for (size_t i = 0; i < cumulative.size(); ++i) cumulative[i] = poll_duration_buckets_[i];
  out.Histogram(kPollDurationSecondsMetric, "Time of one poll of the RDMA devices.", {},
                PollDurationBounds(), cumulative, poll_duration_count_, poll_duration_sum_);
  out.Declare(kSourceErrorsTotalMetric,
              "Failed reads per source (sysfs, verbs, netlink, state, ...); each one was treated "
              "as absent data, none is fatal.",
              prometheus::MetricType::Counter);
  for (const auto& [source, count] : source_errors_)
    out.Counter(kSourceErrorsTotalMetric, "", {{"source", source}}, static_cast<double>(count));
  out.Declare(kComponentSuccessMetric,
              "1 if the component started and its last poll counted no source error; 0 if it "
              "is disabled (failed to start), its last poll failed a read, or what it reports "
              "rests on reads that failed (inventory: the snapshot's failed reads, GID slots "
              "and counters still unknown).",
              prometheus::MetricType::Gauge);
  out.Declare(kComponentDurationSecondsMetric,
              "Time the component took to handle the last poll's snapshot (0 if disabled).",
              prometheus::MetricType::Gauge);
  for (size_t i = 0; i < components_.size(); ++i) {
    const Labels labels{{"component", std::string(components_[i]->name())}};
    out.Gauge(kComponentSuccessMetric, "", labels, component_health_[i].success ? 1 : 0);
    out.Gauge(kComponentDurationSecondsMetric, "", labels, component_health_[i].seconds);
  }
  out.Gauge(kGidSourceInfoMetric, "Where GID tables are read from (verbs or sysfs); 1.",
            {{"source", source_.gid_source_name()}}, 1);
}

}  // namespace rocewatch
