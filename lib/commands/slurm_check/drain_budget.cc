#include "slurm_check/drain_budget.h"

#include <cmath>
#include <cstdlib>

#include "core/text.h"

namespace rocewatch {

int DrainBudget::LimitFor(int scope_nodes) const {
  if (max_nodes) return *max_nodes;
  const double fraction = max_fraction.value_or(0);
  return std::max(1, static_cast<int>(std::floor(fraction * scope_nodes + 1e-9)));
}

std::string DrainBudget::ToString() const {
  if (max_nodes) return std::to_string(*max_nodes);
  char text[32];
  std::snprintf(text, sizeof(text), "%g%%", max_fraction.value_or(0) * 100);
  return text;
}

StatusOr<DrainBudget> ParseDrainBudget(std::string_view text) {
  text = Trim(text);
  DrainBudget budget;
  if (!text.empty() && text.back() == '%') {
    std::string number(text.substr(0, text.size() - 1));
    char* end = nullptr;
    const double percent = std::strtod(number.c_str(), &end);
    if (number.empty() || *end != '\0' || !std::isfinite(percent) || percent <= 0 || percent > 100)
      return Status::InvalidArgument("budget '" + std::string(text) +
                                     "': a percentage must be above 0 and at most 100");
    budget.max_fraction = percent / 100;
    return budget;
  }
  long long count = 0;
  if (!ParseInteger(text, &count) || count < 0 || count > 100000)
    return Status::InvalidArgument("budget '" + std::string(text) +
                                   "': use a node count (e.g. 3) or a percentage (e.g. 10%)");
  budget.max_nodes = static_cast<int>(count);
  return budget;
}

}  // namespace rocewatch
