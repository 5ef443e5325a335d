// What the state file keeps of the other features' incidents: only the parts it was told to keep,
// read from the node state as the features provide them; what the restore did, reported and
// exported; the link verdicts' round trip through the file's vocabulary.
#include "gid_drift/kept_incidents.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include "link_quality/link_verdicts.h"
#include "support/http_client.h"
#include "support/netlink_builders.h"

namespace rocewatch {
namespace {

NodeState StateWithEveryPart() {
  NodeState state;
  state.netdev_incidents.netdevs["rnic0"].missing_addresses[MakeIp("10.0.0.2/24")] = 1000;
  state.netdev_incidents.restored[{"ip_missing_after_flap", "confirmed"}] = 2;
  state.rail_incidents.rails[PortKey{"mlx5_0", 1}].state = TrafficState::kCollapsed;
  state.rail_incidents.restored[{"traffic_collapsed", "checking"}] = 1;
  state.rail_incidents.not_trusted = 3;
  state.far_ends["rnic0"] = {{0x02, 0x07}, 990};
  state.link_verdicts.link_quality["rnic0"] = {"failing", "BER 1e-5"};
  state.seen_ports.ports[PortKey{"mlx5_0", 1}] = {"rnic0", std::nullopt, false};
  state.seen_ports.ports[PortKey{"mlx5_1", 1}] = {"rnic1", 1200.0, false};
  state.seen_ports.restored[{"device_disappeared", "confirmed"}] = 1;
  return state;
}

StateDeclaration Reading(StateParts parts) {
  StateDeclaration declared;
  declared.reads_previous = parts;
  return declared;
}

TEST(KeptIncidentsTest, OnlyTheKeptPartsAreAssembled) {
  const NodeState state = StateWithEveryPart();
  const StateParts kept = {StatePart::kNetdevIncidents, StatePart::kRailIncidents};
  NodeStateView view(state, Reading(kept), "gid_drift");
  PersistedIncidents incidents = KeptIncidentsOf(view, kept);
  EXPECT_EQ(incidents.netdevs.size(), 1u);
  EXPECT_EQ(incidents.rails.size(), 1u);
  EXPECT_TRUE(incidents.far_ends.empty()) << "far ends were not kept";
  EXPECT_TRUE(incidents.link_quality.empty());
  EXPECT_TRUE(incidents.finding_since.empty()) << "the Monitor's, not a feature's";
  EXPECT_EQ(view.refused(), 0u) << "no read of an undeclared part";

  const StateParts all = {StatePart::kNetdevIncidents, StatePart::kRailIncidents,
                          StatePart::kFarEnds, StatePart::kLinkVerdicts};
  NodeStateView every(state, Reading(all), "gid_drift");
  incidents = KeptIncidentsOf(every, all);
  EXPECT_EQ(incidents.far_ends.at("rnic0").last_seen, 990);
  EXPECT_EQ(incidents.link_quality.at("rnic0").state, "failing");
}

TEST(KeptIncidentsTest, TheRestoreOutcomeIsReportedAndExported) {
  const NodeState state = StateWithEveryPart();
  const StateParts kept = {StatePart::kNetdevIncidents, StatePart::kRailIncidents};
  NodeStateView view(state, Reading(kept), "gid_drift");
  EXPECT_EQ(DescribeRestoreOutcome(view, kept),
            "netdevs: 2 ip_missing_after_flap confirmed; rails: 1 traffic_collapsed checking; 3 "
            "rail states not trusted");

  MetricFamilies families;
  AppendRestoredIncidentMetrics(view, kept, families);
  const std::string text = prometheus::TextSerializer().Serialize(families.Take());
  EXPECT_EQ(FindSample(text,
                       "rocewatch_restored_incidents{check=\"ip_missing_after_flap\","
                       "status=\"confirmed\"}"),
            2);
  EXPECT_EQ(FindSample(text,
                       "rocewatch_restored_incidents{check=\"traffic_collapsed\","
                       "status=\"checking\"}"),
            1);
  EXPECT_EQ(FindSample(text,
                       "rocewatch_restored_incidents{check=\"traffic_degraded\","
                       "status=\"healed\"}"),
            0);

  NodeStateView none(state, Reading({}), "gid_drift");
  EXPECT_EQ(DescribeRestoreOutcome(none, {}), "netdevs: none; rails: none");
}

TEST(KeptIncidentsTest, ThePortsSeenOnThisBootAreKeptWithTheMissingOnes) {
  const NodeState state = StateWithEveryPart();
  const StateParts kept = {StatePart::kSeenPorts};
  NodeStateView view(state, Reading(kept), "gid_drift");
  PersistedIncidents incidents = KeptIncidentsOf(view, kept);
  ASSERT_EQ(incidents.seen_ports.size(), 2u);
  EXPECT_FALSE(incidents.seen_ports.at({"mlx5_0", 1}).missing_since.has_value());
  EXPECT_EQ(incidents.seen_ports.at({"mlx5_1", 1}).missing_since, 1200.0);
  EXPECT_EQ(DescribeRestoreOutcome(view, kept),
            "netdevs: none; rails: none; devices: 1 device_disappeared confirmed");
  MetricFamilies families;
  AppendRestoredIncidentMetrics(view, kept, families);
  EXPECT_EQ(FindSample(prometheus::TextSerializer().Serialize(families.Take()),
                       "rocewatch_restored_incidents{check=\"device_disappeared\","
                       "status=\"confirmed\"}"),
            1);
}

TEST(LinkVerdictsTest, VerdictsSurviveTheFilesVocabulary) {
  LinkVerdicts verdicts;
  verdicts.link_quality["rnic0"] = {LinkQualityState::kFailing, std::string(600, 'x')};
  verdicts.link_quality["rnic1"] = {LinkQualityState::kDegraded, "pre-FEC BER 2e-6"};
  verdicts.pfc.storms.insert({"rnic0", 3, PauseDirection::kTx});
  verdicts.pfc.driver["rnic1"] = {4, 1};
  const PersistedLinkVerdicts kept = PersistedLinkVerdictsOf(verdicts);
  EXPECT_EQ(kept.link_quality.at("rnic0").reason.size(), kMaxKeptReasonBytes);

  PersistedIncidents saved;
  saved.link_quality = kept.link_quality;
  saved.link_quality["rnic2"] = {"on_fire", "a label that names no state"};
  saved.pfc_storms = kept.pfc_storms;
  saved.pfc_driver_storms = kept.pfc_driver_storms;
  const LinkVerdicts back = LinkVerdictsOf(saved);
  EXPECT_EQ(back.link_quality.count("rnic2"), 0u);
  EXPECT_EQ(back.link_quality.at("rnic1"), verdicts.link_quality.at("rnic1"));
  EXPECT_EQ(back.link_quality.at("rnic0").state, LinkQualityState::kFailing);
  EXPECT_EQ(back.pfc, verdicts.pfc);
}

}  // namespace
}  // namespace rocewatch
