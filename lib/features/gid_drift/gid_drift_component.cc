#include "gid_drift/gid_drift_component.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "gid_drift/gid_drift_metric_names.h"
#include "gid_drift/kept_incidents.h"
#include "gid_drift/stale_gid_impact.h"
#include "model/check_policy.h"

namespace rocewatch {

std::vector<GidPortTable> GidPortTablesOf(const NodeSnapshot& snapshot) {
  std::vector<GidPortTable> tables;
  for (const Device& device : snapshot.devices) {
    for (const Port& port : device.ports) {
      tables.push_back({device.name, port.number, port.IsRoce(),
                        port.netdevs.empty() ? std::string() : port.netdevs.front(), port.gids});
    }
  }
  return tables;
}

namespace {

// True if `tables` is what GidPortTablesOf(snapshot) would return.
bool SameTables(const NodeSnapshot& snapshot, const std::vector<GidPortTable>& tables) {
  size_t i = 0;
  for (const Device& device : snapshot.devices) {
    for (const Port& port : device.ports) {
      if (i == tables.size()) return false;
      const GidPortTable& t = tables[i++];
      const std::string_view netdev =
          port.netdevs.empty() ? std::string_view() : std::string_view(port.netdevs.front());
      if (t.device != device.name || t.port != port.number || t.roce != port.IsRoce() ||
          t.netdev != netdev || t.entries != port.gids) {
        return false;
      }
    }
  }
  return i == tables.size();
}

}  // namespace

GidDriftComponent::GidDriftComponent(GidStateStore& store, VerbsDeviceSet* verbs_devices,
                                     GidDriftOptions options)
    : store_(store), verbs_devices_(verbs_devices), options_(options) {}

std::unique_ptr<GidDriftComponent> GidDriftComponent::ForDaemon(
    const FileSystem& fs, StateFileWriter& writer, const std::string& procfs_root,
    const std::string& state_file, VerbsDeviceSet* verbs_devices, GidDriftOptions options) {
  auto store = std::make_unique<GidStateStore>(fs, writer, state_file,
                                               JoinPath(procfs_root, "sys/kernel/random/boot_id"));
  auto component = std::make_unique<GidDriftComponent>(*store, verbs_devices, options);
  component->owned_store_ = std::move(store);
  return component;
}

GidDriftComponent::~GidDriftComponent() = default;

StateDeclaration GidDriftComponent::declaration() const {
  StateDeclaration declared;
  declared.provides = {StatePart::kRestoredIncidents};
  if (use_consumers_) declared.reads = {StatePart::kConsumers};
  for (StatePart part : kKeptIncidentParts)
    if (options_.kept_incidents.Has(part)) declared.reads_previous.Add(part);
  return declared;
}

Status GidDriftComponent::Start(MonitorContext& ctx) {
  GidStateStore::LoadResult loaded = store_.Load();
  if (loaded.origin == GidStateStore::Origin::kUnusable ||
      loaded.origin == GidStateStore::Origin::kNewerSchema) {
    spdlog::warn("{}", loaded.message);
    ctx.CountSourceError("state", 1);
  } else {
    spdlog::info("{}", loaded.message);
  }
  if (loaded.origin == GidStateStore::Origin::kRestored) {
    saved_ = loaded.state;
    saved_incidents_ = loaded.incidents;
    if (!options_.kept_incidents.empty())
      RestoreIncidents(ctx, {std::move(loaded.incidents), loaded.written_at_unix_seconds},
                       loaded.incidents_note);
  }
  detector_ = GidDriftDetector(std::move(loaded.state));
  if (verbs_devices_ != nullptr) {
    watcher_ = std::make_unique<VerbsEventWatcher>(
        ctx.loop(), *verbs_devices_,
        [&ctx](std::string_view reason) { ctx.RequestSnapshot(reason); },
        options_.verbs_rescan_interval);
    watcher_->Start();
  }
  return Status::Ok();
}

void GidDriftComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  if (watcher_) watcher_->Sync();  // the GID reads may have opened or closed devices
  // The detector is idempotent: the tables it last saw, seen again, are no change, the same holes
  // and mismatches. So only a failed state write is retried.
  if (observed_ && SameTables(snapshot, last_tables_)) {
    if (options_.kept_incidents.empty()) Persist(ctx);
    return;
  }
  ++observations_;
  std::vector<GidPortTable> tables = GidPortTablesOf(snapshot);
  std::set<GidPortKey> baseline;  // ports seen for the first time: their entries are no news
  for (const GidPortTable& t : tables)
    if (detector_.state().tables.count({t.device, t.port}) == 0)
      baseline.insert({t.device, t.port});

  GidObservation observation = detector_.Observe(tables, ctx.clock().UnixSeconds());
  for (const GidChange& c : observation.changes) {
    const GidEntry& e = c.entry;
    if (c.kind == GidChangeKind::kMoved) {
      std::string line = fmt::format(
          "gid_drift device={} port={} netdev={} gid={} type={} old_index={} new_index={}",
          c.device, e.port, e.netdev, e.gid, GidTypeLabel(e.type), c.old_index, c.new_index);
      if (use_consumers_)
        line += " consumers=\"" +
                DescribeEffectiveConsumers(ctx.state().consumers(), nullptr, c.device) + "\"";
      ctx.RecordEvent(line, Severity::kWarning);
    } else if (baseline.count({c.device, e.port}) == 0) {
      ctx.RecordEvent(fmt::format("gid_{} device={} port={} netdev={} gid={} type={} index={}",
                                  GidChangeKindName(c.kind), c.device, e.port, e.netdev, e.gid,
                                  GidTypeLabel(e.type), e.index),
                      Severity::kInfo);
    }
  }
  holes_.clear();
  for (const GidHole& hole : observation.holes)
    holes_[{hole.device, hole.port}].push_back(hole.index);
  mismatches_.clear();
  if (options_.expected_gid_index) {
    for (const GidPortTable& t : tables)
      if (auto m = EvaluateIndexMismatch(t, *options_.expected_gid_index))
        mismatches_.push_back(*m);
  }
  observed_ = true;
  last_tables_ = std::move(tables);
  // Without other incidents to keep, the file holds this component's state alone: written now.
  if (options_.kept_incidents.empty()) Persist(ctx);
}

// The incidents go on the node state for each feature to resume its own; their first-seen times
// go to the Monitor.
void GidDriftComponent::RestoreIncidents(MonitorContext& ctx, RestoredIncidents restored,
                                         const std::string& note) {
  if (!note.empty()) spdlog::warn("state file: {}: open incidents start afresh", note);
  restored_age_seconds_ = ctx.clock().UnixSeconds() - restored.written_at_unix_seconds;
  restored_since_ = restored.incidents.finding_since;
  ctx.RestoreFindingsSince(restored_since_);
  (void)ctx.state_writer().SetRestoredIncidents(std::move(restored));
  restoring_ = true;
}

void GidDriftComponent::AfterPoll(MonitorContext& ctx) {
  if (restoring_) {
    restoring_ = false;
    (void)ctx.state_writer().SetRestoredIncidents(std::nullopt);
    spdlog::info("state file written {:.0f} s ago: restored incidents: {}", restored_age_seconds_,
                 DescribeRestoreOutcome(ctx.state(), options_.kept_incidents));
  }
  // The Monitor publishes after this: the first poll's findings carry the restored times from
  // the second poll on.
  if (++polls_ > 1) restored_since_.clear();
  if (!options_.kept_incidents.empty()) Persist(ctx);
}

void GidDriftComponent::Persist(MonitorContext& ctx) {
  // Only a state built from a real snapshot replaces the file: a start that failed before its
  // first snapshot leaves it as it was.
  if (!observed_ || !store_.may_write()) return;
  const double now = ctx.clock().UnixSeconds();
  PersistedIncidents incidents;
  if (!options_.kept_incidents.empty()) {
    incidents = KeptIncidentsOf(ctx.state(), options_.kept_incidents);
    incidents.finding_since = restored_since_;
    for (const auto& [key, since] : ctx.findings_since()) incidents.finding_since[key] = since;
  }
  const bool refresh_due = !options_.kept_incidents.empty() && now - saved_at_ >= kRefreshSeconds;
  if (saved_ && *saved_ == detector_.state() && saved_incidents_ == incidents && !refresh_due)
    return;
  Status status = store_.Save(detector_.state(), now, incidents);
  if (status.ok()) {
    if (last_save_failed_) spdlog::info("GID state written to {} again", store_.path());
    last_save_failed_ = false;
    saved_ = detector_.state();
    saved_incidents_ = std::move(incidents);
    saved_at_ = now;
    return;
  }
  ctx.CountSourceError("state", 1);
  // One warning per failure episode, not one per snapshot.
  if (!last_save_failed_)
    spdlog::warn("cannot write the GID state (drift across restarts is not tracked): {}",
                 status.ToString());
  last_save_failed_ = true;
}

void GidDriftComponent::Stop(MonitorContext& ctx) {
  Persist(ctx);
  watcher_.reset();
}

void GidDriftComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  out.Declare(kGidDriftEventsTotalMetric,
              "GIDs (value, type, netdev) seen at an index other than their last known one, "
              "including moves while the daemon was down.",
              prometheus::MetricType::Counter);
  out.Declare(kGidLastDriftTimestampSecondsMetric,
              "Unix time of the last GID drift; 0 if none was seen.",
              prometheus::MetricType::Gauge);
  // Every (device, port, netdev) of a known GID gets a series from the start, so that the first
  // drift is an increase from 0 for alert rules, not a series appearing at 1.
  GidDriftCounters series = detector_.state().counters;
  for (const auto& [port, known] : detector_.state().tables)
    for (const GidEntry& e : known.entries) series.try_emplace({port.device, port.port, e.netdev});
  for (const auto& [key, counter] : series) {
    Labels labels = {
        {"device", key.device}, {"port", std::to_string(key.port)}, {"netdev", key.netdev}};
    out.Counter(kGidDriftEventsTotalMetric, "", labels, static_cast<double>(counter.events));
    out.Gauge(kGidLastDriftTimestampSecondsMetric, "", labels, counter.last_drift_unix_seconds);
  }
  out.Declare(kGidLastDriftInfoMetric,
              "The last GID move per (device, port, netdev): its GID, type, old and new index; 1.",
              prometheus::MetricType::Gauge);
  for (const auto& [key, counter] : detector_.state().counters) {
    if (!counter.last_move) continue;
    const GidLastMove& m = *counter.last_move;
    out.Gauge(kGidLastDriftInfoMetric, "",
              {{"device", key.device},
               {"port", std::to_string(key.port)},
               {"netdev", key.netdev},
               {"gid", m.gid},
               {"type", GidTypeLabel(m.type)},
               {"old_index", std::to_string(m.old_index)},
               {"new_index", std::to_string(m.new_index)}},
              1);
  }
  if (options_.expected_gid_index) {
    out.Declare(kGidIndexMismatchMetric,
                "1 if --expected-gid-index (" + std::to_string(*options_.expected_gid_index) +
                    ") does not hold the port's RoCE v2 IPv4 GID.",
                prometheus::MetricType::Gauge);
    for (const GidIndexMismatch& m : mismatches_)
      out.Gauge(kGidIndexMismatchMetric, "",
                {{"device", m.device}, {"port", std::to_string(m.port)}, {"netdev", m.netdev}},
                m.mismatch ? 1 : 0);
  }
  out.Declare(kGidHolesMetric,
              "Empty GID slots below a non-default GID: slots most likely still referenced "
              "after a GID moved up.",
              prometheus::MetricType::Gauge);
  for (const auto& [key, holes] : holes_)
    out.Gauge(kGidHolesMetric, "", {{"device", key.device}, {"port", std::to_string(key.port)}},
              static_cast<double>(holes.size()));
  out.Declare(kStatePersistenceOkMetric,
              "1 while the state file is kept up to date; 0 while it is not (left untouched "
              "since start, or the last write failed). Absent without --state-file.",
              prometheus::MetricType::Gauge);
  if (store_.enabled())
    out.Gauge(kStatePersistenceOkMetric, "", {}, store_.may_write() && !last_save_failed_ ? 1 : 0);
  out.Counter(kStatePersistenceFailuresTotalMetric,
              "State file failures: unusable at start (corrupt, unreadable, no boot id) or a "
              "failed write; drift across restarts is not tracked while they last.",
              {}, static_cast<double>(store_.failures()));
  if (!options_.kept_incidents.empty())
    AppendRestoredIncidentMetrics(ctx.state(), options_.kept_incidents, out);
}

void GidDriftComponent::AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const {
  const double now = ctx.clock().UnixSeconds();
  const std::optional<ConsumerObservation>* consumers =
      use_consumers_ ? ctx.state().consumers() : nullptr;
  for (const auto& [key, counter] : detector_.state().counters) {
    // Recent drifts only (the RoceGidDrift alert's window); restored ones count too.
    if (counter.events == 0 || now - counter.last_drift_unix_seconds >= kDriftFindingSeconds)
      continue;
    std::string last = "last move";
    if (const std::optional<GidLastMove>& m = counter.last_move)
      last += ": " + m->gid + " (" + GidTypeLabel(m->type) + ") from index " +
              std::to_string(m->old_index) + " to " + std::to_string(m->new_index);
    else
      last += " restored from the state file (indices unknown)";
    const long minutes = std::lround((now - counter.last_drift_unix_seconds) / 60);
    std::string impact;
    if (consumers && *consumers) {
      if (counter.last_move)
        impact = DescribeStaleGidImpact((*consumers)->ConsumersOf(key.device),
                                        counter.last_move->old_index, counter.last_move->new_index);
      impact = impact.empty() ? "; consumers of " + key.device + ": " +
                                    (*consumers)->DescribeConsumers(key.device)
                              : ". Holding the stale entry: " + impact;
    }
    out.push_back(
        {SeverityOf("gid_drift"), "gid_drift", key.device + "/" + std::to_string(key.port),
         std::to_string(counter.events) + " GID move(s) on " + key.netdev + "; " + last + ", " +
             std::to_string(std::max(0L, minutes)) + " min ago" + impact,
         "Jobs that resolved the old index (a pinned NCCL_IB_GID_INDEX, or QPs created before the "
         "move) use a stale GID: restart them. Keep the RNIC address across carrier loss "
         "(ifupdown, or NetworkManager ignore-carrier) so that the GID does not move."});
  }
  for (const GidIndexMismatch& m : mismatches_) {
    if (!m.mismatch) continue;
    std::string holds = m.at_index ? m.at_index->gid + " (" + GidTypeLabel(m.at_index->type) + ")"
                                   : std::string("nothing");
    out.push_back({SeverityOf("gid_index_mismatch"), "gid_index_mismatch",
                   m.device + "/" + std::to_string(m.port),
                   "expected GID index " + std::to_string(*options_.expected_gid_index) +
                       " holds " + holds + ", not the port's RoCE v2 IPv4 GID",
                   "Jobs pinned to this index (NCCL_IB_GID_INDEX) cannot connect through this "
                   "port: restore the GID (re-add the address after the references are gone) or "
                   "use NCCL's automatic GID selection (NCCL >= 2.21.5)."});
  }
}

}  // namespace rocewatch
