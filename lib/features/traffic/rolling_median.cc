#include "traffic/rolling_median.h"

#include <algorithm>

namespace rocewatch {

void RollingMedian::Add(double value) {
  values_.push_back(value);
  ++added_;
  while (values_.size() > capacity_) values_.pop_front();
}

std::optional<double> MedianOf(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return (lower + upper) / 2;
}

}  // namespace rocewatch
