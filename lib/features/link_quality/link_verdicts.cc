#include "link_quality/link_verdicts.h"

namespace rocewatch {

PersistedLinkVerdicts PersistedLinkVerdictsOf(const LinkVerdicts& verdicts) {
  PersistedLinkVerdicts out;
  for (const auto& [netdev, verdict] : verdicts.link_quality)
    out.link_quality[netdev] = {LinkQualityStateLabel(verdict.state),
                                verdict.reason.substr(0, kMaxKeptReasonBytes)};
  for (const PfcKey& key : verdicts.pfc.storms)
    out.pfc_storms.insert({key.netdev, key.priority, PauseDirectionLabel(key.direction)});
  for (const auto& [netdev, driver] : verdicts.pfc.driver)
    out.pfc_driver_storms[netdev] = {driver.warning_events_in_window,
                                     driver.error_events_in_window};
  return out;
}

LinkVerdicts LinkVerdictsOf(const PersistedIncidents& saved) {
  LinkVerdicts verdicts;
  for (const auto& [netdev, kept] : saved.link_quality)
    for (LinkQualityState state : kAllLinkQualityStates)
      if (kept.state == LinkQualityStateLabel(state))
        verdicts.link_quality[netdev] = {state, kept.reason};
  for (const auto& [netdev, priority, direction] : saved.pfc_storms)
    verdicts.pfc.storms.insert(
        {netdev, priority, direction == "tx" ? PauseDirection::kTx : PauseDirection::kRx});
  for (const auto& [netdev, kept] : saved.pfc_driver_storms)
    verdicts.pfc.driver[netdev] = {kept.warning_events, kept.error_events};
  return verdicts;
}

}  // namespace rocewatch
