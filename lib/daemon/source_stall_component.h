#pragma once
// Reports the reads stuck in the kernel (daemon/guarded_snapshot_source.h):
// rocewatch_source_stalled {source} (1 while a read of that source has not returned for over its
// deadline, else 0), rocewatch_reading_threads_abandoned (threads given up on that have not
// finished), and one source_stalled finding per stalled source naming what is stuck
// (docs/metrics.md, docs/diagnose.md). StalledSourcesNote says the same in one line for /healthz.
//
// Threading: the loop thread; StuckCalls is thread-safe. REQUIRES: stuck outlives the component.

#include <string>
#include <vector>

#include "component/monitor_component.h"
#include "core/clock.h"
#include "os/call_watch.h"

namespace rocewatch {

class SourceStallComponent final : public MonitorComponent {
 public:
  // `sources`: every source reported, stalled or not ("sysfs", "verbs", "ethtool", "procfs",
  // "dcb").
  SourceStallComponent(const StuckCalls& stuck, std::vector<std::string> sources,
                       Duration call_deadline)
      : stuck_(stuck), sources_(std::move(sources)), call_deadline_(call_deadline) {}

  std::string_view name() const override { return "source_stall"; }
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;

  // Stuck reads named in one finding, at most (the rest are counted).
  static constexpr size_t kNamedCalls = 4;

 private:
  const StuckCalls& stuck_;
  const std::vector<std::string> sources_;
  const Duration call_deadline_;
};

// The sources with a read stuck now, for /healthz: "stalled reads: sysfs (2), verbs (1); the
// source_stalled finding names them", or "" when none. Only rocewatch's own source names, never a
// host path (those reach a terminal through the finding, escaped). Thread-safe.
std::string StalledSourcesNote(const StuckCalls& stuck);

}  // namespace rocewatch
