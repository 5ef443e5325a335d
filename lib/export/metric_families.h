#pragma once
// Builds the metric families of one exposition from values (no prometheus-cpp registries: the
// daemon mirrors kernel counters, which prometheus::Counter cannot Set()). The loop builds one
// MetricFamilies after each change and publishes it; scrapes only copy it.

#include <prometheus/metric_family.h>

#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocewatch {

using Labels = std::vector<std::pair<std::string, std::string>>;

// Names and help texts are taken as views (no copy unless a family is new); labels passed as
// temporaries are moved into the sample, not copied: a 16-rail node's exposition is about a
// thousand samples per poll.
class MetricFamilies {
 public:
  void Gauge(std::string_view name, std::string_view help, Labels labels, double value);
  void Counter(std::string_view name, std::string_view help, Labels labels, double value);
  // A histogram sample: bucket upper bounds ascending, cumulative counts per bound (+Inf implied
  // by sample_count).
  void Histogram(std::string_view name, std::string_view help, Labels labels,
                 const std::vector<double>& bounds, const std::vector<uint64_t>& cumulative_counts,
                 uint64_t sample_count, double sample_sum);

  // Adds a family built earlier (a copy): its samples join those of a family of the same name.
  void Append(const prometheus::MetricFamily& family);

  // Declares a family without samples, so that it is documented even when empty.
  void Declare(std::string_view name, std::string_view help, prometheus::MetricType type);
  // A gauge family a component exports: its name and help text.
  struct GaugeFamily {
    std::string_view name;
    std::string_view help;
  };
  // Declares each as a gauge family without samples (a component's table of what it exports).
  void DeclareGauges(std::initializer_list<GaugeFamily> families);

  // The families in name order.
  std::vector<prometheus::MetricFamily> Take();
  size_t size() const { return families_.size(); }

 private:
  prometheus::MetricFamily& FamilyFor(std::string_view name, std::string_view help,
                                      prometheus::MetricType type);
  std::map<std::string, prometheus::MetricFamily, std::less<>> families_;
};

}  // namespace rocewatch
