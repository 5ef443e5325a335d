#include "daemon/source_stall_component.h"

#include <fmt/format.h>

#include <map>

#include "daemon/daemon_metric_names.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

// What is stuck now, by source.
std::map<std::string, std::vector<std::string>> StuckBySource(const StuckCalls& stuck) {
  std::map<std::string, std::vector<std::string>> by_source;
  for (StuckCalls::Call& call : stuck.List())
    by_source[call.source].push_back(std::move(call.what));
  return by_source;
}

}  // namespace

std::string StalledSourcesNote(const StuckCalls& stuck) {
  if (stuck.size() == 0) return "";  // no lock taken while nothing is stuck
  std::string named;
  for (const auto& [source, calls] : StuckBySource(stuck))
    named += fmt::format("{}{} ({})", named.empty() ? "" : ", ", source, calls.size());
  if (named.empty()) return "";
  return "stalled reads: " + named + "; the source_stalled finding names them";
}

void SourceStallComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  (void)ctx;
  std::map<std::string, size_t> stuck_by_source;
  for (const std::string& source : sources_) stuck_by_source[source] = 0;
  for (const auto& [source, calls] : StuckBySource(stuck_)) stuck_by_source[source] = calls.size();
  out.Declare(kSourceStalledMetric,
              "1 while a read of the source has not returned within its deadline (stuck in the "
              "kernel: the read is skipped, the rest of the node is read); 0 otherwise.",
              prometheus::MetricType::Gauge);
  for (const auto& [source, count] : stuck_by_source)
    out.Gauge(kSourceStalledMetric, "", {{"source", source}}, count > 0 ? 1 : 0);
  out.Gauge(kReadingThreadsAbandonedMetric,
            "Reading threads given up on because a read of theirs is stuck in the kernel, and "
            "not finished yet.",
            {}, stuck_.abandoned_threads());
}

void SourceStallComponent::AppendFindings(const MonitorContext& ctx,
                                          std::vector<Finding>& out) const {
  (void)ctx;
  const double deadline = ToSeconds(call_deadline_);
  for (const auto& [source, calls] : StuckBySource(stuck_)) {
    std::string named;
    for (size_t i = 0; i < calls.size() && i < kNamedCalls; ++i)
      named += (i == 0 ? "" : ", ") + calls[i];
    if (calls.size() > kNamedCalls)
      named += fmt::format(" and {} more", calls.size() - kNamedCalls);
    Finding f;
    f.check = "source_stalled";
    f.severity = SeverityOf(f.check);
    f.subject = source;
    f.message = fmt::format(
        "{} {} read(s) stuck in the kernel for over {:g} s: {}; skipped until they return, the "
        "rest of the node is still read",
        calls.size(), source, deadline, named);
    f.remedy =
        "a driver that does not answer: look for hung tasks and firmware errors in the kernel "
        "log (dmesg); a driver reload or a reboot frees the read. rocewatch needs no restart";
    out.push_back(std::move(f));
  }
}

}  // namespace rocewatch
