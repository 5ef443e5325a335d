#pragma once
// Consumer tracking in the daemon: every scan_interval, an incremental procfs scan
// (consumers/procfs_consumer_scanner.h) on a reading thread of its own behind the read deadline
// (os/guarded_reader.h: a process stuck in the kernel can hold the lock that its maps and environ
// reads take; a read stuck past the deadline is reported as source "procfs" and the thread and its
// scanner are given up on, the next scan starting afresh without that read), and every
// kubelet_interval (and with every full scan) a kubelet pod-resources call (asynchronous: the
// answer is merged when it arrives), merged into the node state's consumers part that the traffic
// and GID drift components read. Exports
//   rocewatch_rdma_consumers{device}               consumers holding the device now
//   rocewatch_rdma_consumers_known{device}         1 if the sources could tell (present or none)
//   rocewatch_rdma_consumer_info{device, pid, comm, pod, namespace, container, job, nccl_version}
//   rocewatch_consumer_source_up{source}           1 if procfs / kubelet answered at the last scan
//   rocewatch_consumer_blind_processes             processes whose descriptors could not be read
// counts failed reads in rocewatch_source_errors_total{source="procfs"|"kubelet"}, reports them as
// read_failed findings (and itself unhealthy) while they last, and records a change of a device's
// consumers as an event. docs/metrics.md, docs/detection.md.
//
// Threading: the event-loop thread. Lifetime: fs outlives the component.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "component/monitor_component.h"
#include "consumers/consumer_options.h"
#include "consumers/pod_resources.h"
#include "consumers/procfs_consumer_scanner.h"
#include "job_awareness/consumer_merge.h"
#include "os/guarded_reader.h"

namespace rocewatch {

class ConsumerComponent final : public MonitorComponent {
 public:
  // `kubelet` may be null (not a Kubernetes node, or disabled). `reads`: where the procfs scan's
  // stuck reads are reported, and its deadline (a null `stuck`: a StuckCalls of its own).
  // REQUIRES: fs outlives the component and every reading thread given up on.
  ConsumerComponent(const FileSystem& fs, const HostPaths& paths, ConsumerOptions options,
                    std::unique_ptr<PodResourcesSource> kubelet, GuardedReaderOptions reads = {});

  std::string_view name() const override { return "consumers"; }
  // Provides kConsumers. Reads the traffic component's scan request and unexplained devices as
  // of the poll before (reads_previous: the traffic component reads this poll's consumers).
  StateDeclaration declaration() const override;
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  // False while the latest procfs scan or kubelet call had a failed read (read_failed names it).
  bool Healthy(const MonitorContext& ctx) const override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  // read_failed for the consumer sources (job_awareness/consumer_read_checks.h).
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;

  // The observation provided last; nullopt before the first scan.
  const std::optional<ConsumerObservation>& latest() const { return latest_; }

 private:
  void Merge(MonitorContext& ctx, const NodeSnapshot& snapshot);
  // Scans procfs on the reading thread; false when the scan was not made or got stuck (counted
  // and logged; the last scan stays).
  bool Scan(MonitorContext& ctx, MonoTime now, bool full);

  struct ScanState;  // the reading thread's: its watched procfs, scanner and last scan

  const FileSystem& fs_;
  const HostPaths paths_;
  const ConsumerOptions options_;
  GuardedReader<ScanState> reader_;
  std::unique_ptr<PodResourcesSource> kubelet_;
  std::optional<ConsumerObservation> latest_;
  std::optional<MonoTime> last_scan_;
  std::optional<MonoTime> last_full_scan_;
  std::optional<MonoTime> last_kubelet_request_;
  Duration full_scan_wait_;  // before the next requested full scan
  std::optional<ProcfsConsumerScan> procfs_;
  std::optional<KubeletAnswer> kubelet_answer_;
  std::map<std::string, std::string> described_;  // device -> DescribeConsumers, for events
};

}  // namespace rocewatch
