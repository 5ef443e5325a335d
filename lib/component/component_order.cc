#include "component/component_order.h"

#include <iterator>
#include <optional>
#include <utility>

namespace rocewatch {
namespace {

constexpr StatePart kAllParts[] = {
    StatePart::kSnapshot,
    StatePart::kRnicNetdevs,
    StatePart::kNetdevLinks,
    StatePart::kConsumers,
    StatePart::kTrafficUnexplained,
    StatePart::kConsumerScanRequest,
    StatePart::kLinkDownReasons,
    StatePart::kRestoredIncidents,
    StatePart::kNetdevIncidents,
    StatePart::kRailIncidents,
    StatePart::kFarEnds,
    StatePart::kLinkVerdicts,
    StatePart::kSeenPorts,
};
static_assert(std::size(kAllParts) == kStatePartCount);

constexpr size_t kMonitor = static_cast<size_t>(-1);

// Part -> its provider: kMonitor, a component index, or nullopt.
using Providers = std::vector<std::optional<size_t>>;

StatusOr<Providers> FindProviders(const std::vector<DeclaredComponent>& components,
                                  StateParts monitor_provides) {
  Providers providers(kStatePartCount);
  for (StatePart part : kAllParts)
    if (monitor_provides.Has(part)) providers[static_cast<size_t>(part)] = kMonitor;
  for (size_t i = 0; i < components.size(); ++i) {
    for (StatePart part : kAllParts) {
      if (!components[i].declaration.provides.Has(part)) continue;
      std::optional<size_t>& provider = providers[static_cast<size_t>(part)];
      if (provider) {
        const std::string first =
            *provider == kMonitor ? "the monitor" : "component " + components[*provider].name;
        return Status::InvalidArgument("node state part " + std::string(StatePartName(part)) +
                                       " is provided by both " + first + " and component " +
                                       components[i].name);
      }
      provider = i;
    }
  }
  for (const DeclaredComponent& c : components) {
    for (StatePart part : kAllParts) {
      const bool read = c.declaration.reads.Has(part) || c.declaration.reads_previous.Has(part);
      if (read && !providers[static_cast<size_t>(part)])
        return Status::InvalidArgument("component " + c.name + " reads node state part " +
                                       std::string(StatePartName(part)) +
                                       ", which no component provides");
    }
  }
  return providers;
}

// "a -> b -> a (through parts x, y)": a cycle among the components not yet ordered.
std::string DescribeCycle(const std::vector<DeclaredComponent>& components,
                          const std::vector<std::vector<std::pair<size_t, StatePart>>>& before,
                          const std::vector<bool>& done) {
  // Walk back along edges between remaining components until one repeats: every remaining
  // component has a remaining predecessor, or it would have been ordered.
  std::vector<size_t> seen_at(components.size(), kMonitor);
  std::vector<std::pair<size_t, StatePart>> path;  // (component, part it reads from the next)
  size_t at = 0;
  while (done[at]) ++at;
  while (seen_at[at] == kMonitor) {
    seen_at[at] = path.size();
    for (const auto& [from, part] : before[at]) {
      if (done[from]) continue;
      path.emplace_back(at, part);
      at = from;
      break;
    }
  }
  std::string text = components[at].name;
  std::string parts;
  // path[seen_at[at]..] runs backwards along the cycle: reverse it for reading order.
  for (size_t k = path.size(); k-- > seen_at[at];) {
    text += " -> " + components[path[k].first].name;
    parts += (parts.empty() ? "" : ", ") + std::string(StatePartName(path[k].second));
  }
  return text + " (through " + parts + ")";
}

}  // namespace

StatusOr<std::vector<size_t>> OrderComponents(const std::vector<DeclaredComponent>& components,
                                              StateParts monitor_provides) {
  StatusOr<Providers> providers = FindProviders(components, monitor_provides);
  if (!providers.ok()) return providers.status();
  // before[i]: (component that must run before i, the part i reads from it).
  std::vector<std::vector<std::pair<size_t, StatePart>>> before(components.size());
  for (size_t i = 0; i < components.size(); ++i) {
    for (StatePart part : kAllParts) {
      const std::optional<size_t>& provider = (*providers)[static_cast<size_t>(part)];
      if (components[i].declaration.reads.Has(part) && provider && *provider != kMonitor &&
          *provider != i)
        before[i].emplace_back(*provider, part);
    }
  }
  std::vector<size_t> order;
  std::vector<bool> done(components.size(), false);
  while (order.size() < components.size()) {
    std::optional<size_t> next;
    for (size_t i = 0; i < components.size() && !next; ++i) {
      if (done[i]) continue;
      bool ready = true;
      for (const auto& [from, part] : before[i]) ready = ready && done[from];
      if (ready) next = i;
    }
    if (!next)
      return Status::InvalidArgument("components read each other's node state parts in a cycle: " +
                                     DescribeCycle(components, before, done) +
                                     "; one of them must declare its read reads_previous");
    done[*next] = true;
    order.push_back(*next);
  }
  return order;
}

}  // namespace rocewatch
