#pragma once
// Writes metric families in the Prometheus text exposition format, version 0.0.4 (what /metrics
// serves). Pure.
//
// prometheus-cpp's TextSerializer writes the same format through std::ostream, one insertion per
// token and printf for every double: on a 16-rail node (~1,400 series, ~110 kB) that took most of
// the daemon's CPU per scrape (docs/benchmarks.md). This writer appends to one reserved string and
// formats numbers with std::to_chars. It writes what TextSerializer writes, byte for byte, except
// that help texts are escaped and NaN is spelt `NaN` (TextSerializer: `Nan`; Prometheus reads
// both):
//   - `# HELP name text` (backslash and newline escaped, as the format requires) when the help is
//     not empty, then `# TYPE name counter|gauge|summary|untyped|histogram`;
//   - one line per sample: name, labels in the order given (values with backslash, double quote
//     and newline escaped), the value, and the timestamp in ms when it is not 0;
//   - a summary: `_count`, `_sum`, then one line per quantile (`quantile="q"`);
//   - a histogram: `_count`, `_sum`, then cumulative `_bucket{le="b"}` lines, and a `le="+Inf"`
//     bucket holding the sample count when the last given bound is not +Inf;
//   - values, `le` and `quantile` as printf's "%.16g" (so series keep their labels), `NaN`,
//     `+Inf`, `-Inf`.

#include <prometheus/metric_family.h>

#include <string>
#include <vector>

namespace rocewatch {

// Appends the exposition of `families` to `out`.
void AppendExposition(const std::vector<prometheus::MetricFamily>& families, std::string& out);

// The exposition of `families`, in a string reserved for it.
std::string WriteExposition(const std::vector<prometheus::MetricFamily>& families);

}  // namespace rocewatch
