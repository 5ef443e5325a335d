#pragma once
// The rates of one port over a recent time window, and how much they fluctuate.
//
// Fluctuation is measured as the relative jitter: the mean absolute change between consecutive
// samples divided by the mean rate. Unlike the coefficient of variation, a single step (a rail
// that drops and stays down, a job that pauses) adds one change only, while a rail that keeps
// swinging adds one on every sample. Noise that is uniform within +-30% gives about 0.2.

#include <cstddef>
#include <deque>
#include <optional>
#include <utility>

#include "core/clock.h"

namespace rocewatch {

class RateWindow {
 public:
  // REQUIRES: span > 0.
  explicit RateWindow(Duration span) : span_(span) {}

  // Adds the rate observed at `at` and drops samples older than the span. Times must not go back.
  void Add(MonoTime at, double rate);
  void Clear() { samples_.clear(); }
  size_t size() const { return samples_.size(); }

  // The relative jitter of the samples held; nullopt with fewer than `min_samples` samples or a
  // mean of zero.
  std::optional<double> RelativeJitter(size_t min_samples) const;

 private:
  Duration span_;
  std::deque<std::pair<MonoTime, double>> samples_;
};

}  // namespace rocewatch
