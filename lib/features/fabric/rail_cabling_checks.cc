#include "fabric/rail_cabling_checks.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/natural_less.h"
#include "core/text.h"
#include "fabric/neighbor_labels.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

constexpr size_t kMinRailsToInfer = 3;
constexpr std::string_view kInferred =
    " (inferred from the layout of this node's rails: no --rail-plan was given)";

std::string RailName(const RailIdentity& rail) {
  return rail.netdev + " (" + rail.device + "/" + std::to_string(rail.port) + ", rail " +
         std::to_string(rail.index) + ")";
}

bool Matches(const PlannedFarEnd& planned, const LldpFrame& f) {
  return MatchesPlan(planned, f.system_name.value_or(""), f.chassis_id.value, f.port_id.value,
                     f.port_description.value_or(""));
}

void CheckAgainstPlan(const RailCablingObservation& o, RailCablingResult& result) {
  for (const CabledRail& rail : o.rails) {
    if (rail.neighbor == nullptr) continue;
    std::optional<PlannedFarEnd> planned = PlanFor(*o.plan, rail.identity, o.node_name);
    if (!planned) continue;
    bool ok = Matches(*planned, *rail.neighbor);
    result.verdicts.push_back({rail.identity.netdev, *planned, ok});
    if (ok) continue;
    std::string belongs;
    for (const CabledRail& other : o.rails) {
      if (&other == &rail) continue;
      std::optional<PlannedFarEnd> theirs = PlanFor(*o.plan, other.identity, o.node_name);
      if (theirs && Matches(*theirs, *rail.neighbor)) {
        belongs = ", where rail " + std::to_string(other.identity.index) + " (" +
                  other.identity.netdev + ") belongs";
        break;
      }
    }
    result.findings.push_back(
        {SeverityOf("rail_miscabled"), "rail_miscabled", rail.identity.netdev,
         RailName(rail.identity) + " is cabled to " + DescribeFarEnd(*rail.neighbor) + belongs +
             "; the rail plan (line " + std::to_string(planned->line_number) + ") expects switch " +
             planned->switch_pattern + " port " + planned->port_pattern +
             ": rail-local traffic crosses the spine or, on a rail-only fabric, cannot reach its "
             "peers (QP timeouts)",
         "recable the rail to the planned switch port (or swap it with the rail it was swapped "
         "with), or correct the rail plan if the plan is wrong"});
  }
}

void InferFromLayout(const RailCablingObservation& o, RailCablingResult& result) {
  std::vector<const CabledRail*> seen;
  for (const CabledRail& rail : o.rails)
    if (rail.neighbor != nullptr) seen.push_back(&rail);
  if (seen.size() < kMinRailsToInfer) return;
  std::map<std::string, std::vector<const CabledRail*>> by_switch;
  for (const CabledRail* rail : seen) by_switch[rail->neighbor->chassis_id.value].push_back(rail);
  const size_t rails = seen.size();
  const size_t switches = by_switch.size();
  if (switches < rails && 2 * switches > rails) {
    for (const auto& [chassis, group] : by_switch) {
      std::set<std::string> ports;
      for (const CabledRail* rail : group) ports.insert(rail->neighbor->port_id.value);
      if (group.size() < 2 || ports.size() < 2) continue;  // one port: lldp_shared_switch_port
      std::vector<std::string> names;
      for (const CabledRail* rail : group) names.push_back(rail->identity.netdev);
      for (const CabledRail* rail : group)
        result.findings.push_back(
            {SeverityOf("rail_layout_suspect"), "rail_layout_suspect", rail->identity.netdev,
             "rails " + JoinList(names) + " land on the same switch (" +
                 DescribeFarEnd(*rail->neighbor) + " for " + rail->identity.netdev +
                 ") while the other rails each reach a switch of their own: in a "
                 "rail-optimized fabric every rail has its own leaf" +
                 std::string(kInferred),
             "check these rails' cables against the cabling plan; give rocewatch the plan "
             "(--rail-plan) to check it exactly"});
    }
  }
  if (switches == rails) {
    std::map<std::string, size_t> port_count;
    for (const CabledRail* rail : seen) ++port_count[rail->neighbor->port_id.value];
    auto top = std::max_element(port_count.begin(), port_count.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
    if (2 * top->second <= rails || top->second == rails) return;
    for (const CabledRail* rail : seen) {
      if (rail->neighbor->port_id.value == top->first) continue;
      result.findings.push_back(
          {SeverityOf("rail_layout_suspect"), "rail_layout_suspect", rail->identity.netdev,
           RailName(rail->identity) + " reaches " + DescribeFarEnd(*rail->neighbor) + " while " +
               std::to_string(top->second) + " of " + std::to_string(rails) + " rails reach port " +
               top->first +
               " of their switches: in a rail-optimized fabric a node has the same port on "
               "every rail's leaf" +
               std::string(kInferred),
           "check this rail's cable against the cabling plan; give rocewatch the plan "
           "(--rail-plan) to check it exactly"});
    }
  }
}

}  // namespace

void NumberRails(std::vector<CabledRail>& rails) {
  std::sort(rails.begin(), rails.end(), [](const CabledRail& a, const CabledRail& b) {
    if (a.identity.device != b.identity.device)
      return NaturalLess(a.identity.device, b.identity.device);
    return a.identity.port < b.identity.port;
  });
  for (size_t i = 0; i < rails.size(); ++i) rails[i].identity.index = i;
}

RailCablingResult CheckRailCabling(const RailCablingObservation& observation) {
  RailCablingResult result;
  if (observation.plan != nullptr)
    CheckAgainstPlan(observation, result);
  else
    InferFromLayout(observation, result);
  return result;
}

}  // namespace rocewatch
