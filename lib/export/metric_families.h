#pragma once
// Builds the metric families of one exposition from values (no prometheus-cpp registries: the
// daemon mirrors kernel counters, which prometheus::Counter cannot Set()). The loop builds one
// MetricFamilies after each change and publishes it; scrapes only copy it.

#include <prometheus/metric_family.h>

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rocewatch {

using Labels = std::vector<std::pair<std::string, std::string>>;

class MetricFamilies {
 public:
  void Gauge(const std::string& name, const std::string& help, const Labels& labels, double value);
  void Counter(const std::string& name, const std::string& help, const Labels& labels,
               double value);
  // A histogram sample: bucket upper bounds ascending, cumulative counts per bound (+Inf implied
  // by sample_count).
  void Histogram(const std::string& name, const std::string& help, const Labels& labels,
                 const std::vector<double>& bounds, const std::vector<uint64_t>& cumulative_counts,
                 uint64_t sample_count, double sample_sum);

  // Declares a family without samples, so that it is documented even when empty.
  void Declare(const std::string& name, const std::string& help, prometheus::MetricType type);

  // The families in name order.
  std::vector<prometheus::MetricFamily> Take();
  size_t size() const { return families_.size(); }

 private:
  prometheus::MetricFamily& FamilyFor(const std::string& name, const std::string& help,
                                      prometheus::MetricType type);
  std::map<std::string, prometheus::MetricFamily> families_;
};

}  // namespace rocewatch
