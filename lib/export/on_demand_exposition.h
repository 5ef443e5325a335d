#pragma once
// What a scrape sees, built when a scrape asks for it instead of after every poll
// (core/on_demand.h): building the ~1,200 samples of a 16-rail node after every poll, and freeing
// the last ones, was a quarter of the daemon's CPU (docs/benchmarks.md). After a poll the loop
// only marks the exposition stale; a scrape (Collect() on an exposer thread) asks the loop, which
// builds the families if they are stale; the scrape copies them. A loop that does not answer
// within `wait` serves the last families built (none before the first build).
//
// Threading: as OnDemand: Create() and the destructor on the loop thread, MarkStale() from any
// thread, Collect() from any thread but the loop's.

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/on_demand.h"

namespace rocewatch {

class OnDemandExposition final : public prometheus::Collectable {
 public:
  using Families = std::vector<prometheus::MetricFamily>;

  // The exposition starts stale (empty until built). Errors: Internal when no eventfd can be
  // made. REQUIRES: loop outlives the object.
  static StatusOr<std::unique_ptr<OnDemandExposition>> Create(EventLoop& loop,
                                                              OnDemand<Families>::Build build,
                                                              Duration wait);

  // The families `build` gives have changed (a poll, an event): the next scrape builds them.
  void MarkStale() { families_->MarkStale(); }
  // The families as of the loop's last change; never call it on the loop thread.
  Families Collect() const override;
  uint64_t builds() const { return families_->builds(); }

 private:
  explicit OnDemandExposition(std::unique_ptr<OnDemand<Families>> families)
      : families_(std::move(families)) {}
  const std::unique_ptr<OnDemand<Families>> families_;
};

}  // namespace rocewatch
