#include "job_awareness/consumer_component.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "job_awareness/consumer_read_checks.h"
#include "job_awareness/job_awareness_metric_names.h"
#include "os/watched_file_system.h"

namespace rocewatch {

struct ConsumerComponent::ScanState {
  ScanState(const FileSystem& base, CallWatch& watch, const HostPaths& paths,
            Duration recheck_after)
      : fs(base, watch, "procfs"),
        scanner(fs, paths, ProcfsConsumerScanner::Options{recheck_after}) {}
  WatchedFileSystem fs;
  ProcfsConsumerScanner scanner;
  ProcfsConsumerScan scan;  // the last one made
};

namespace {

GuardedReaderOptions WithStuckCalls(GuardedReaderOptions reads) {
  if (!reads.stuck) reads.stuck = std::make_shared<StuckCalls>();
  return reads;
}

}  // namespace

ConsumerComponent::ConsumerComponent(const FileSystem& fs, const HostPaths& paths,
                                     ConsumerOptions options,
                                     std::unique_ptr<PodResourcesSource> kubelet,
                                     GuardedReaderOptions reads)
    : fs_(fs),
      paths_(paths),
      options_(options),
      reader_(WithStuckCalls(std::move(reads)),
              [&fs, paths, recheck = options.recheck_after](CallWatch& watch) {
                return std::make_shared<ScanState>(fs, watch, paths, recheck);
              }),
      kubelet_(std::move(kubelet)),
      full_scan_wait_(options.min_full_scan_interval) {}

namespace {

size_t ConsumerCount(const ProcfsConsumerScan& scan) {
  size_t count = 0;
  for (const auto& [device, consumers] : scan.consumers) count += consumers.size();
  return count;
}

}  // namespace

StateDeclaration ConsumerComponent::declaration() const {
  StateDeclaration declared;
  declared.provides = {StatePart::kConsumers};
  declared.reads = {StatePart::kSnapshot};
  declared.reads_previous = {StatePart::kConsumerScanRequest, StatePart::kTrafficUnexplained};
  return declared;
}

void ConsumerComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  if (options_.scan_interval <= Duration::zero()) return;
  const MonoTime now = snapshot.taken_at;
  bool merge = false;
  if (kubelet_) {
    if (std::optional<StatusOr<std::vector<PodDeviceAllocation>>> answer = kubelet_->TakeAnswer()) {
      std::vector<std::string> devices;
      for (const Device& device : snapshot.devices) devices.push_back(device.name);
      KubeletAnswer fresh = KubeletAnswerOf(*kubelet_, std::move(*answer), fs_, paths_, devices);
      // No socket is a state (not a Kubernetes node), not a failed read. A failure is logged
      // when it first appears or changes (a missing kubelet module, say, fails every call).
      if (!fresh.status.ok() && fresh.status.code() != StatusCode::kNotFound) {
        ctx.CountSourceError("kubelet");
        if (!kubelet_answer_ || kubelet_answer_->status.message() != fresh.status.message())
          spdlog::warn("kubelet: {}", fresh.status.message());
      }
      kubelet_answer_ = std::move(fresh);
      merge = true;
    }
  }
  const bool* scan_requested = ctx.state().consumer_scan_requested();
  const bool full_requested = scan_requested && *scan_requested &&
                              (!last_full_scan_ || now - *last_full_scan_ >= full_scan_wait_);
  if (!last_scan_ || now - *last_scan_ >= options_.scan_interval || full_requested) {
    const bool full = !last_scan_ || full_requested;
    last_scan_ = now;
    if (full) last_full_scan_ = now;
    const bool was_readable = !procfs_ || procfs_->procfs_readable;
    const size_t consumers_before = procfs_ ? ConsumerCount(*procfs_) : 0;
    if (Scan(ctx, now, full)) {
      if (full_requested) {
        // A requested re-scan that found no consumer the last scan missed (a kernel RDMA user,
        // say) makes the next one wait twice as long: its cost stays bounded on such nodes.
        full_scan_wait_ = ConsumerCount(*procfs_) > consumers_before
                              ? options_.min_full_scan_interval
                              : std::min(full_scan_wait_ * 2, options_.recheck_after);
      }
      // An unreadable process list is a state: counted once when it begins, not at every scan.
      if (procfs_->procfs_readable ? procfs_->read_errors > 0 : was_readable)
        ctx.CountSourceError("procfs", procfs_->read_errors);
    }
    if (kubelet_ && (full || !last_kubelet_request_ ||
                     now - *last_kubelet_request_ >= options_.kubelet_interval)) {
      kubelet_->Request();
      last_kubelet_request_ = now;
    }
    merge = true;
  }
  // A device that appeared or went away since the last merge: merge again (no I/O), so that
  // the node state and the exposition follow the inventory.
  if (!merge && latest_ && latest_->devices.size() != snapshot.devices.size()) merge = true;
  for (size_t i = 0; !merge && latest_ && i < snapshot.devices.size(); ++i)
    merge = latest_->devices.count(snapshot.devices[i].name) == 0;
  if (merge) Merge(ctx, snapshot);
}

bool ConsumerComponent::Scan(MonitorContext& ctx, MonoTime now, bool full) {
  std::optional<StuckCalls::Call> stuck;
  Status scanned = reader_.Run(
      [now, full](ScanState& state) { state.scan = state.scanner.Scan(now, full); }, &stuck);
  if (!scanned.ok()) {
    // The next scan is made by a new thread with a new scanner: a full one, the stuck read failing
    // at once (read_failed names it while it lasts).
    ctx.CountSourceError("procfs");
    if (stuck)
      spdlog::warn(
          "procfs read stuck for over {} ms: {}; the consumer scan's reading thread is "
          "given up on",
          std::chrono::duration_cast<std::chrono::milliseconds>(reader_.deadline()).count(),
          stuck->what);
    else
      spdlog::warn("consumer scan not made: {}", scanned.message());
    return false;
  }
  procfs_ = std::move(reader_.state()->scan);
  return true;
}

void ConsumerComponent::Merge(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  std::vector<std::string> devices;
  for (const Device& device : snapshot.devices) devices.push_back(device.name);
  std::vector<std::string> not_in_use;
  if (!kubelet_) not_in_use.push_back("kubelet: not used (--kubelet-socket none)");
  ConsumerObservation observation =
      MergeConsumers(devices, procfs_ ? &*procfs_ : nullptr,
                     kubelet_answer_ ? &*kubelet_answer_ : nullptr, not_in_use);
  std::map<std::string, std::string> described;
  for (const std::string& device : devices) {
    std::string now = observation.DescribeConsumers(device);
    auto before = described_.find(device);
    if (before != described_.end() && before->second != now)
      ctx.RecordEvent("consumers of " + device + ": " + before->second + " -> " + now,
                      Severity::kInfo);
    described.emplace(device, std::move(now));
  }
  described_ = std::move(described);
  latest_ = std::move(observation);
  (void)ctx.state_writer().SetConsumers(*latest_);
}

bool ConsumerComponent::Healthy(const MonitorContext& ctx) const {
  (void)ctx;
  return CheckConsumerSourceReads(procfs_ ? &*procfs_ : nullptr,
                                  kubelet_answer_ ? &*kubelet_answer_ : nullptr)
      .empty();
}

void ConsumerComponent::AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const {
  (void)ctx;
  std::vector<Finding> failed = CheckConsumerSourceReads(
      procfs_ ? &*procfs_ : nullptr, kubelet_answer_ ? &*kubelet_answer_ : nullptr);
  out.insert(out.end(), failed.begin(), failed.end());
}

void ConsumerComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  constexpr std::string_view count = kRdmaConsumersMetric;
  constexpr std::string_view known = kRdmaConsumersKnownMetric;
  constexpr std::string_view info = kRdmaConsumerInfoMetric;
  constexpr std::string_view up = kConsumerSourceUpMetric;
  constexpr std::string_view blind = kConsumerBlindProcessesMetric;
  out.DeclareGauges({
      {count, "Processes (or pods) that hold the RDMA device now."},
      {known,
       "1 if the consumer sources could tell who holds the device (someone or nobody), 0 if not, "
       "or if the device carries traffic that no process is seen holding (a kernel RDMA user) "
       "(docs/detection.md: a node-wide stop then pages no higher than warning)."},
      {info,
       "1 per consumer of the device: process, Kubernetes pod, batch job and NCCL version (a "
       "label unknown is empty)."},
      {up, "1 if the consumer source (procfs, kubelet) answered at the last scan."},
      {blind,
       "Processes whose file descriptors could not be read at the last scan (whether they hold "
       "an RDMA device is unknown)."},
  });
  const std::optional<ConsumerObservation>& latest = latest_;
  const NodeSnapshot* snapshot = ctx.state().snapshot();
  if (!latest || !snapshot) return;
  for (const auto& [device, view] : latest->devices) {
    // A device gone since the last scan is gone from the exposition too (never half a device).
    if (snapshot->FindDevice(device) == nullptr) continue;
    out.Gauge(count, "", {{"device", device}}, static_cast<double>(view.consumers.size()));
    // The traffic detector's view: traffic no holder explains makes "nobody" unknown.
    out.Gauge(known, "", {{"device", device}},
              EffectiveKnowledgeOf(&latest_, ctx.state().traffic_unexplained(), device) ==
                      ConsumerKnowledge::kUnknown
                  ? 0
                  : 1);
    for (const RailConsumer& c : view.consumers) {
      out.Gauge(info, "",
                {{"device", device},
                 {"pid", c.pid == 0 ? "" : std::to_string(c.pid)},
                 {"comm", c.comm},
                 {"pod", c.pod},
                 {"namespace", c.pod_namespace},
                 {"container", c.container},
                 {"job", c.job},
                 {"nccl_version", c.nccl_version}},
                1);
    }
  }
  auto answered = [&](const char* source) {
    for (const std::string& s : latest->sources)
      if (s == source) return 1.0;
    return 0.0;
  };
  out.Gauge(up, "", {{"source", "procfs"}}, answered("procfs"));
  out.Gauge(up, "", {{"source", "kubelet"}}, answered("kubelet"));
  out.Gauge(blind, "", {}, procfs_ ? static_cast<double>(procfs_->unreadable_pids.size()) : 0.0);
}

}  // namespace rocewatch
