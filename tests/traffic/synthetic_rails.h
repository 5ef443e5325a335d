#pragma once
// A simulated multi-rail node for traffic detector tests: each rail has a rate, a carrier and
// error counters; Step() advances the cumulative counters as the kernel would and returns the
// samples the detector reads. Rates are split evenly between transmit and receive.

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/clock.h"
#include "traffic/traffic_detector.h"

namespace rocewatch {

class SyntheticRails {
 public:
  SyntheticRails(int rails, double rate) : rails_(rails) {
    for (Rail& rail : rails_) rail.rate = rate;
  }

  static PortKey Key(int rail) { return {"mlx5_" + std::to_string(rail), 1}; }
  int size() const { return static_cast<int>(rails_.size()); }

  void SetRate(int rail, double rate) { rails_.at(rail).rate = rate; }
  void SetAllRates(double rate) {
    for (Rail& rail : rails_) rail.rate = rate;
  }
  void SetCarrier(int rail, std::optional<bool> carrier) { rails_.at(rail).carrier = carrier; }
  // Each rate of every later step is multiplied by a factor drawn uniformly from [1-n, 1+n].
  void SetNoise(double n) { noise_ = n; }
  // Sets the raw counters of a rail (a device reset, a counter about to wrap).
  void SetBytes(int rail, uint64_t transmit, uint64_t receive) {
    rails_.at(rail).transmit = transmit;
    rails_.at(rail).receive = receive;
  }
  void SetHwCounter(int rail, const std::string& name, uint64_t value) {
    rails_.at(rail).hw[name] = value;
  }
  void AddToHwCounter(int rail, const std::string& name, uint64_t increase) {
    rails_.at(rail).hw[name] += increase;  // wraps like the kernel's u64; tests wrap by hand
  }
  // Moves `d` worth of traffic on `rail` without a sample (a change in the middle of an interval).
  void Carry(int rail, Duration d) {
    const auto half = static_cast<uint64_t>(std::llround(rails_.at(rail).rate * ToSeconds(d) / 2));
    rails_.at(rail).transmit += half;
    rails_.at(rail).receive += half;
  }
  // The next sample of `rail` reports a failed read of its receive counter.
  void FailNextRead(int rail) { rails_.at(rail).fail_next = true; }
  void AddRail(double rate) {
    rails_.emplace_back();
    rails_.back().rate = rate;
  }

  // Advances every rail by `dt` at its rate and returns the samples of all rails.
  std::vector<PortTrafficSample> Step(Duration dt) {
    std::vector<PortTrafficSample> samples;
    for (int i = 0; i < size(); ++i) {
      Rail& rail = rails_[i];
      double factor = 1;
      if (noise_ > 0) factor = std::uniform_real_distribution<double>(1 - noise_, 1 + noise_)(rng_);
      const auto half = static_cast<uint64_t>(std::llround(rail.rate * factor * ToSeconds(dt) / 2));
      rail.transmit += half;
      rail.receive += half;
      PortTrafficSample sample;
      sample.key = Key(i);
      sample.transmit_bytes = rail.transmit;
      sample.receive_bytes = rail.receive;
      if (rail.fail_next) sample.receive_bytes.reset();
      rail.fail_next = false;
      sample.hw_counters = &rail.hw;  // rails_ outlives the detector's Observe call
      sample.carrier = rail.carrier;
      samples.push_back(std::move(sample));
    }
    return samples;
  }

 private:
  struct Rail {
    double rate = 0;
    uint64_t transmit = 1'000'000'000'000;  // a node that has been up for a while
    uint64_t receive = 2'000'000'000'000;
    std::map<std::string, uint64_t> hw{{"local_ack_timeout_err", 0}, {"np_cnp_sent", 0}};
    std::optional<bool> carrier = true;
    bool fail_next = false;
  };
  std::vector<Rail> rails_;
  double noise_ = 0;
  std::mt19937 rng_{20260101};
};

}  // namespace rocewatch
