#include "export/exposition_writer.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

namespace rocewatch {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

template <typename Integer>
void AppendInteger(Integer value, std::string& out) {
  char buffer[24];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  (void)error;  // cannot fail with this buffer
  out.append(buffer, end);
}

// As printf's "%.16g" (what prometheus-cpp writes, so series keep their `le` and `quantile`
// labels), without printf: whole numbers below 1e15 (counters, mostly) as integers, which
// "%.16g" writes in full; the rest through std::to_chars.
void AppendDouble(double value, std::string& out) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value < 0 ? "-Inf" : "+Inf";
  } else if (std::abs(value) < 1e15 && value == std::trunc(value) &&
             !(value == 0 && std::signbit(value))) {  // "-0" below
    AppendInteger(static_cast<int64_t>(value), out);
  } else {
    char buffer[32];  // "%.16g" takes at most 23 characters
    auto [end, error] =
        std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::general, 16);
    (void)error;
    out.append(buffer, end);
  }
}

// Appends `text`, escaping backslash, newline and (in label values) the double quote.
void AppendEscaped(std::string_view text, bool quote, std::string& out) {
  size_t plain_from = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '\\' && c != '\n' && !(quote && c == '"')) continue;
    out.append(text.substr(plain_from, i - plain_from));
    out += '\\';
    out += c == '\n' ? 'n' : c;
    plain_from = i + 1;
  }
  out.append(text.substr(plain_from));
}

// A label the sample adds after the metric's own: `quantile` or `le`.
struct ExtraLabel {
  std::string_view name;
  double value = 0;
};

void AppendHead(const MetricFamily& family, const ClientMetric& metric, std::string_view suffix,
                const ExtraLabel* extra, std::string& out) {
  out += family.name;
  out += suffix;
  if (!metric.label.empty() || extra != nullptr) {
    out += '{';
    const char* separator = "";
    for (const ClientMetric::Label& label : metric.label) {
      out += separator;
      out += label.name;
      out += "=\"";
      AppendEscaped(label.value, /*quote=*/true, out);
      out += '"';
      separator = ",";
    }
    if (extra != nullptr) {
      out += separator;
      out += extra->name;
      out += "=\"";
      AppendDouble(extra->value, out);
      out += '"';
    }
    out += '}';
  }
  out += ' ';
}

void AppendTail(const ClientMetric& metric, std::string& out) {
  if (metric.timestamp_ms != 0) {
    out += ' ';
    AppendInteger(metric.timestamp_ms, out);
  }
  out += '\n';
}

void AppendSample(const MetricFamily& family, const ClientMetric& metric, double value,
                  std::string& out) {
  AppendHead(family, metric, "", nullptr, out);
  AppendDouble(value, out);
  AppendTail(metric, out);
}

void AppendCountAndSum(const MetricFamily& family, const ClientMetric& metric, uint64_t count,
                       double sum, std::string& out) {
  AppendHead(family, metric, "_count", nullptr, out);
  AppendInteger(count, out);
  AppendTail(metric, out);
  AppendHead(family, metric, "_sum", nullptr, out);
  AppendDouble(sum, out);
  AppendTail(metric, out);
}

void AppendSummary(const MetricFamily& family, const ClientMetric& metric, std::string& out) {
  const ClientMetric::Summary& summary = metric.summary;
  AppendCountAndSum(family, metric, summary.sample_count, summary.sample_sum, out);
  for (const ClientMetric::Quantile& quantile : summary.quantile) {
    const ExtraLabel label{"quantile", quantile.quantile};
    AppendHead(family, metric, "", &label, out);
    AppendDouble(quantile.value, out);
    AppendTail(metric, out);
  }
}

void AppendHistogram(const MetricFamily& family, const ClientMetric& metric, std::string& out) {
  const ClientMetric::Histogram& histogram = metric.histogram;
  AppendCountAndSum(family, metric, histogram.sample_count, histogram.sample_sum, out);
  double last_bound = -std::numeric_limits<double>::infinity();
  for (const ClientMetric::Bucket& bucket : histogram.bucket) {
    const ExtraLabel label{"le", bucket.upper_bound};
    AppendHead(family, metric, "_bucket", &label, out);
    AppendInteger(bucket.cumulative_count, out);
    AppendTail(metric, out);
    last_bound = bucket.upper_bound;
  }
  if (last_bound != std::numeric_limits<double>::infinity()) {
    const ExtraLabel label{"le", std::numeric_limits<double>::infinity()};
    AppendHead(family, metric, "_bucket", &label, out);
    AppendInteger(histogram.sample_count, out);
    AppendTail(metric, out);
  }
}

const char* TypeName(MetricType type) {
  switch (type) {
    case MetricType::Counter:
      return "counter";
    case MetricType::Gauge:
      return "gauge";
    case MetricType::Summary:
      return "summary";
    case MetricType::Histogram:
      return "histogram";
    case MetricType::Untyped:
      break;
  }
  return "untyped";
}

void AppendFamily(const MetricFamily& family, std::string& out) {
  if (!family.help.empty()) {
    out += "# HELP ";
    out += family.name;
    out += ' ';
    AppendEscaped(family.help, /*quote=*/false, out);
    out += '\n';
  }
  out += "# TYPE ";
  out += family.name;
  out += ' ';
  out += TypeName(family.type);
  out += '\n';
  for (const ClientMetric& metric : family.metric) {
    switch (family.type) {
      case MetricType::Counter:
        AppendSample(family, metric, metric.counter.value, out);
        break;
      case MetricType::Gauge:
        AppendSample(family, metric, metric.gauge.value, out);
        break;
      case MetricType::Untyped:
        AppendSample(family, metric, metric.untyped.value, out);
        break;
      case MetricType::Summary:
        AppendSummary(family, metric, out);
        break;
      case MetricType::Histogram:
        AppendHistogram(family, metric, out);
        break;
    }
  }
}

// A generous estimate of the text's size, so that appending rarely reallocates.
size_t EstimatedSize(const std::vector<MetricFamily>& families) {
  size_t size = 0;
  for (const MetricFamily& family : families) {
    size += family.help.size() + 3 * family.name.size() + 32;
    for (const ClientMetric& metric : family.metric) {
      size_t head = family.name.size() + 40;
      for (const ClientMetric::Label& label : metric.label)
        head += label.name.size() + label.value.size() + 4;
      const size_t lines = 1 + metric.summary.quantile.size() + metric.histogram.bucket.size() +
                           (family.type == MetricType::Histogram ? 3 : 0) +
                           (family.type == MetricType::Summary ? 2 : 0);
      size += lines * head;
    }
  }
  return size;
}

}  // namespace

void AppendExposition(const std::vector<MetricFamily>& families, std::string& out) {
  for (const MetricFamily& family : families) AppendFamily(family, out);
}

std::string WriteExposition(const std::vector<MetricFamily>& families) {
  std::string out;
  out.reserve(EstimatedSize(families));
  AppendExposition(families, out);
  return out;
}

}  // namespace rocewatch
