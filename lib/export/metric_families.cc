#include "export/metric_families.h"

#include "core/utf8.h"

namespace rocewatch {
namespace {
// Label values carry text read from the host (link_layer, hw counter file names, ...): one value
// that is not valid UTF-8 would make Prometheus reject the whole scrape, so it is repaired here.
std::vector<prometheus::ClientMetric::Label> ToLabels(Labels labels) {
  std::vector<prometheus::ClientMetric::Label> out;
  out.reserve(labels.size());
  for (auto& [name, value] : labels) {
    if (IsValidUtf8(value)) {
      out.push_back({std::move(name), std::move(value)});
    } else {
      out.push_back({std::move(name), ToValidUtf8(value)});
    }
  }
  return out;
}
}  // namespace

prometheus::MetricFamily& MetricFamilies::FamilyFor(std::string_view name, std::string_view help,
                                                    prometheus::MetricType type) {
  auto it = families_.find(name);
  if (it == families_.end()) {
    it = families_.emplace(std::string(name), prometheus::MetricFamily{}).first;
    it->second.name = std::string(name);
    it->second.help = std::string(help);
    it->second.type = type;
  }
  return it->second;
}

void MetricFamilies::Declare(std::string_view name, std::string_view help,
                             prometheus::MetricType type) {
  FamilyFor(name, help, type);
}

void MetricFamilies::DeclareGauges(std::initializer_list<GaugeFamily> families) {
  for (const GaugeFamily& family : families)
    Declare(family.name, family.help, prometheus::MetricType::Gauge);
}

void MetricFamilies::Gauge(std::string_view name, std::string_view help, Labels labels,
                           double value) {
  prometheus::ClientMetric metric;
  metric.label = ToLabels(std::move(labels));
  metric.gauge.value = value;
  FamilyFor(name, help, prometheus::MetricType::Gauge).metric.push_back(std::move(metric));
}

void MetricFamilies::Counter(std::string_view name, std::string_view help, Labels labels,
                             double value) {
  prometheus::ClientMetric metric;
  metric.label = ToLabels(std::move(labels));
  metric.counter.value = value;
  FamilyFor(name, help, prometheus::MetricType::Counter).metric.push_back(std::move(metric));
}

void MetricFamilies::Histogram(std::string_view name, std::string_view help, Labels labels,
                               const std::vector<double>& bounds,
                               const std::vector<uint64_t>& cumulative_counts,
                               uint64_t sample_count, double sample_sum) {
  prometheus::ClientMetric metric;
  metric.label = ToLabels(std::move(labels));
  metric.histogram.sample_count = sample_count;
  metric.histogram.sample_sum = sample_sum;
  for (size_t i = 0; i < bounds.size() && i < cumulative_counts.size(); ++i)
    metric.histogram.bucket.push_back({cumulative_counts[i], bounds[i]});
  metric.histogram.bucket.push_back({sample_count, std::numeric_limits<double>::infinity()});
  FamilyFor(name, help, prometheus::MetricType::Histogram).metric.push_back(std::move(metric));
}

void MetricFamilies::Append(const prometheus::MetricFamily& family) {
  auto it = families_.find(family.name);
  if (it == families_.end()) {
    families_.emplace(family.name, family);
    return;
  }
  it->second.metric.insert(it->second.metric.end(), family.metric.begin(), family.metric.end());
}

std::vector<prometheus::MetricFamily> MetricFamilies::Take() {
  std::vector<prometheus::MetricFamily> out;
  out.reserve(families_.size());
  for (auto& [name, family] : families_) out.push_back(std::move(family));
  families_.clear();
  return out;
}

}  // namespace rocewatch
