#include "traffic/rate_window.h"

#include <cmath>

namespace rocewatch {

void RateWindow::Add(MonoTime at, double rate) {
  samples_.emplace_back(at, rate);
  while (!samples_.empty() && samples_.front().first <= at - span_) samples_.pop_front();
}

std::optional<double> RateWindow::RelativeJitter(size_t min_samples) const {
  if (samples_.size() < 2 || samples_.size() < min_samples) return std::nullopt;
  double sum = 0;
  double changes = 0;
  for (size_t i = 0; i < samples_.size(); ++i) {
    sum += samples_[i].second;
    if (i > 0) changes += std::fabs(samples_[i].second - samples_[i - 1].second);
  }
  const double mean = sum / static_cast<double>(samples_.size());
  if (mean <= 0) return std::nullopt;
  return (changes / static_cast<double>(samples_.size() - 1)) / mean;
}

}  // namespace rocewatch
