#pragma once
// The median of the last N values added. The traffic baseline: robust to the bursts and short
// dips of collective traffic, where a mean (or an EWMA) is dragged by every spike.
// Cost: O(N) per Median() call; N is a few hundred.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace rocewatch {

// The median of `values` (the mean of the two middle ones for an even count); nullopt if empty.
std::optional<double> MedianOf(std::vector<double> values);

class RollingMedian {
 public:
  // REQUIRES: capacity >= 1.
  explicit RollingMedian(size_t capacity) : capacity_(capacity) {}

  void Add(double value);
  void Clear() { values_.clear(); }
  size_t size() const { return values_.size(); }
  // How many values were ever added (changes whenever the median may have).
  uint64_t added() const { return added_; }
  // MedianOf the values held.
  std::optional<double> Median() const {
    return MedianOf(std::vector<double>(values_.begin(), values_.end()));
  }

 private:
  size_t capacity_;
  std::deque<double> values_;
  uint64_t added_ = 0;
};

}  // namespace rocewatch
