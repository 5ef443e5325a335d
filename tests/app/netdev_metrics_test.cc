#include "netdev_health/netdev_metrics.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "support/fake_rtnetlink_source.h"
#include "support/netlink_builders.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

// name{labels} -> value of every sample, for assertions.
std::map<std::string, double> Samples(MetricFamilies& families) {
  std::map<std::string, double> out;
  for (const auto& family : families.Take()) {
    for (const auto& m : family.metric) {
      std::string key = family.name + "{";
      for (const auto& l : m.label) key += l.name + "=" + l.value + ",";
      key += "}";
      out[key] = family.type == prometheus::MetricType::Counter ? m.counter.value : m.gauge.value;
    }
  }
  return out;
}

TEST(NetdevMetrics, ContractNamesAndValuesAfterAFlapThatLostAnAddress) {
  FakeClock clock;
  EventLoop loop(clock);
  FakeRtnetlinkSource source;
  source.dump().links = {MakeLink(4, "rnic0", true, 5)};
  source.dump().addresses = {MakeAddress(4, "10.0.0.2/24"), MakeAddress(4, "fd00::2/64")};
  NetdevHealthConfig config;
  config.ip_loss.grace = seconds(5);
  NetlinkListener listener(source, clock, {"rnic0"}, config);
  ASSERT_TRUE(listener.Start(loop).ok());
  source.Push(MakeLink(4, "rnic0", false, 6, clock.Now()));
  source.Push(MakeAddress(4, "10.0.0.2/24", true, clock.Now()));
  loop.RunOnce(Duration::zero());
  clock.Advance(seconds(1));
  source.Push(MakeLink(4, "rnic0", true, 7, clock.Now()));
  loop.RunOnce(Duration::zero());
  clock.Advance(seconds(6));
  loop.RunOnce(Duration::zero());

  MetricFamilies families;
  AppendNetdevMetrics(listener, families);
  auto s = Samples(families);
  EXPECT_EQ(s["rocewatch_netdev_carrier{netdev=rnic0,}"], 1);
  EXPECT_EQ(s["rocewatch_link_flaps_total{netdev=rnic0,}"], 1);
  EXPECT_EQ(s["rocewatch_netdev_carrier_changes_total{netdev=rnic0,}"], 7);
  EXPECT_EQ(s["rocewatch_ip_lost_during_flap_total{netdev=rnic0,}"], 1);
  EXPECT_EQ(s["rocewatch_netdev_addresses{netdev=rnic0,family=ipv4,}"], 0);
  EXPECT_EQ(s["rocewatch_netdev_addresses{netdev=rnic0,family=ipv6,}"], 1);
  EXPECT_EQ(s["rocewatch_ip_missing{netdev=rnic0,}"], 1);
  EXPECT_EQ(s["rocewatch_policy_rules_missing{netdev=rnic0,}"], 0);
  EXPECT_EQ(s["rocewatch_netlink_resyncs_total{}"], 0);
}

TEST(NetdevMetrics, FamiliesAreDeclaredWithoutRnics) {
  FakeClock clock;
  EventLoop loop(clock);
  FakeRtnetlinkSource source;
  NetlinkListener listener(source, clock, {});
  ASSERT_TRUE(listener.Start(loop).ok());
  MetricFamilies families;
  AppendNetdevMetrics(listener, families);
  EXPECT_EQ(families.size(), 10u);
}

}  // namespace
}  // namespace rocewatch
