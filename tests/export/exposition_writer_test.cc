#include "export/exposition_writer.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "export/exposition_text.h"

namespace rocewatch {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

ClientMetric Metric(std::vector<ClientMetric::Label> labels) {
  ClientMetric metric;
  metric.label = std::move(labels);
  return metric;
}

TEST(ExpositionWriter, WritesEveryTypeInTheTextFormat) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  MetricFamily counter{"rw_events_total", "Events.\nA back\\slash.", MetricType::Counter, {}};
  counter.metric.push_back(Metric({{"device", "mlx5_0"}, {"why", "a \"quoted\\\" \nline"}}));
  counter.metric.back().counter.value = 12345678901234.0;
  MetricFamily gauge{"rw_ratio", "", MetricType::Gauge, {}};
  gauge.metric.push_back(Metric({}));
  gauge.metric.back().gauge.value = 3e-05;
  gauge.metric.push_back(Metric({{"v", "nan"}}));
  gauge.metric.back().gauge.value = std::nan("");
  gauge.metric.back().timestamp_ms = 1796112000250;
  gauge.metric.push_back(Metric({{"v", "inf"}}));
  gauge.metric.back().gauge.value = -kInf;
  MetricFamily untyped{"rw_untyped", "U.", MetricType::Untyped, {}};
  untyped.metric.push_back(Metric({}));
  untyped.metric.back().untyped.value = 0.1;
  MetricFamily summary{"rw_latency", "S.", MetricType::Summary, {}};
  summary.metric.push_back(Metric({{"path", "/metrics"}}));
  summary.metric.back().summary = {3, 0.5, {{0.5, 0.125}, {0.99, kInf}}};
  MetricFamily histogram{"rw_poll_seconds", "H.", MetricType::Histogram, {}};
  histogram.metric.push_back(Metric({}));
  histogram.metric.back().histogram = {7, 2.25, {{1, 0.0005}, {6, 1}}};
  histogram.metric.push_back(Metric({{"a", "b"}}));
  histogram.metric.back().histogram = {2, 1, {{2, kInf}}};

  EXPECT_EQ(WriteExposition({counter, gauge, untyped, summary, histogram}),
            "# HELP rw_events_total Events.\\nA back\\\\slash.\n"
            "# TYPE rw_events_total counter\n"
            "rw_events_total{device=\"mlx5_0\",why=\"a \\\"quoted\\\\\\\" \\nline\"} "
            "12345678901234\n"
            "# TYPE rw_ratio gauge\n"
            "rw_ratio 3e-05\n"
            "rw_ratio{v=\"nan\"} NaN 1796112000250\n"
            "rw_ratio{v=\"inf\"} -Inf\n"
            "# HELP rw_untyped U.\n"
            "# TYPE rw_untyped untyped\n"
            "rw_untyped 0.1\n"
            "# HELP rw_latency S.\n"
            "# TYPE rw_latency summary\n"
            "rw_latency_count{path=\"/metrics\"} 3\n"
            "rw_latency_sum{path=\"/metrics\"} 0.5\n"
            "rw_latency{path=\"/metrics\",quantile=\"0.5\"} 0.125\n"
            "rw_latency{path=\"/metrics\",quantile=\"0.99\"} +Inf\n"
            "# HELP rw_poll_seconds H.\n"
            "# TYPE rw_poll_seconds histogram\n"
            "rw_poll_seconds_count 7\n"
            "rw_poll_seconds_sum 2.25\n"
            "rw_poll_seconds_bucket{le=\"0.0005\"} 1\n"
            "rw_poll_seconds_bucket{le=\"1\"} 6\n"
            "rw_poll_seconds_bucket{le=\"+Inf\"} 7\n"
            "rw_poll_seconds_count{a=\"b\"} 2\n"
            "rw_poll_seconds_sum{a=\"b\"} 1\n"
            "rw_poll_seconds_bucket{a=\"b\",le=\"+Inf\"} 2\n");
}

TEST(ExpositionWriter, AppendsToWhatIsThere) {
  MetricFamily gauge{"rw_up", "", MetricType::Gauge, {Metric({})}};
  gauge.metric.back().gauge.value = 1;
  std::string out = "before\n";
  AppendExposition({gauge}, out);
  EXPECT_EQ(out, "before\n# TYPE rw_up gauge\nrw_up 1\n");
  EXPECT_EQ(WriteExposition({}), "");
}

// What prometheus-cpp's TextSerializer writes, byte for byte (but NaN's spelling), on families
// with every type and values of every magnitude; and it reads back as the same samples.
TEST(ExpositionWriter, WritesWhatPrometheusCppsSerializerWrites) {
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> exponent(-12, 20);
  auto value = [&](int i) {
    switch (i % 7) {
      case 0:
        return static_cast<double>(random() % 1000000000000ULL);  // counters
      case 1:
        return std::pow(10.0, exponent(random));
      case 2:
        return -std::pow(10.0, exponent(random));
      case 3:
        return i % 2 ? 0.0 : -0.0;
      case 4:
        return i % 3 ? std::nan("") : std::numeric_limits<double>::infinity();
      default:
        return static_cast<double>(random() % 100) / 8 - 6;
    }
  };
  std::vector<MetricFamily> families;
  const MetricType types[] = {MetricType::Counter, MetricType::Gauge, MetricType::Untyped,
                              MetricType::Summary, MetricType::Histogram};
  for (int f = 0; f < 40; ++f) {
    MetricFamily family{
        "rw_family_" + std::to_string(f), "Help " + std::to_string(f) + ".", types[f % 5], {}};
    for (int m = 0; m < 12; ++m) {
      ClientMetric metric = Metric({{"device", "mlx5_" + std::to_string(m)},
                                    {"port", "1"},
                                    {"text", m % 3 ? "plain" : "with \"quote\" and \\"}});
      const double v = value(f * 12 + m);
      metric.counter.value = metric.gauge.value = metric.untyped.value = v;
      metric.summary = {static_cast<uint64_t>(m), v, {{0.5, value(m)}, {0.9, value(m + 1)}}};
      metric.histogram = {10, v, {{1, 0.001}, {5, 0.25}, {9, 2.5}}};
      family.metric.push_back(std::move(metric));
    }
    families.push_back(std::move(family));
  }

  std::ostringstream serialized;
  prometheus::TextSerializer().Serialize(serialized, families);
  std::string theirs = serialized.str();
  for (size_t at = theirs.find(" Nan"); at != std::string::npos; at = theirs.find(" Nan", at))
    theirs.replace(at, 4, " NaN");
  const std::string ours = WriteExposition(families);
  EXPECT_EQ(ours, theirs);

  StatusOr<std::vector<ExposedSample>> samples = ParseExposition(ours);
  ASSERT_TRUE(samples.ok()) << samples.status().ToString();
  EXPECT_GT(samples->size(), 1000u);
}

}  // namespace
}  // namespace rocewatch
