#include "export/on_demand_exposition.h"

#include <utility>

namespace rocewatch {

StatusOr<std::unique_ptr<OnDemandExposition>> OnDemandExposition::Create(
    EventLoop& loop, OnDemand<Families>::Build build, Duration wait) {
  StatusOr<std::unique_ptr<OnDemand<Families>>> families =
      OnDemand<Families>::Create(loop, std::move(build), wait, "/metrics");
  if (!families.ok()) return families.status();
  return std::unique_ptr<OnDemandExposition>(new OnDemandExposition(std::move(families).value()));
}

OnDemandExposition::Families OnDemandExposition::Collect() const {
  std::shared_ptr<const Families> families = families_->Get();
  return families ? *families : Families{};  // the copy is made outside any lock
}

}  // namespace rocewatch
