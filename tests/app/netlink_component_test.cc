#include "netdev_health/netlink_component.h"

#include <gtest/gtest.h>

#include "daemon/monitor.h"
#include "support/fake_clock.h"
#include "support/fake_rtnetlink_source.h"
#include "support/fake_snapshot_source.h"
#include "support/netlink_builders.h"
#include "support/node_builder.h"
#include "support/state_stub_component.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// The daemon's Monitor with the netlink component on a scripted source: the node has one RoCE
// port on rnic0 (10.0.0.2); the namespace has rnic0 and eth0.
class NetlinkComponentTest : public ::testing::Test {
 protected:
  NetlinkComponentTest() : snapshots_(clock_), loop_(clock_) {
    snapshots_.node.devices.push_back(RoceDevice("mlx5_0", "rnic0", {"10.0.0.2"}));
    auto source = std::make_unique<FakeRtnetlinkSource>();
    source_ = source.get();
    source_->dump().links = {MakeLink(2, "eth0", true, 1), MakeLink(4, "rnic0", true, 1)};
    source_->dump().addresses = {MakeAddress(4, "10.0.0.2/24")};
    NetlinkComponent::Options options;
    options.health.ip_loss.grace = seconds(3);
    auto component = std::make_unique<NetlinkComponent>(options, std::move(source));
    component_ = component.get();
    monitor_.AddComponent(std::move(component));
    monitor_.SetEventObserver(
        [this](double, std::string_view what) { events_.emplace_back(what); });
    monitor_.SetChangeSink([this] { ++publishes_; });
  }
  void SetUp() override { ASSERT_TRUE(monitor_.Start().ok()); }
  void TearDown() override { monitor_.Stop(); }
  void RunFor(Duration d) {
    for (Duration passed{}; passed < d; passed += milliseconds(10)) {
      clock_.Advance(milliseconds(10));
      loop_.RunOnce(Duration::zero());
    }
  }
  void Push(NetlinkMessage m) {
    std::visit([&](auto& x) { x.at = clock_.Now(); }, m);
    source_->Push(std::move(m));
  }
  std::optional<double> Sample(const std::string& name, const std::string& netdev) const {
    for (const auto& family : monitor_.BuildExposition()) {
      if (family.name != name) continue;
      for (const auto& m : family.metric)
        for (const auto& l : m.label)
          if (l.name == "netdev" && l.value == netdev)
            return family.type == prometheus::MetricType::Counter ? m.counter.value : m.gauge.value;
    }
    return std::nullopt;
  }

  FakeClock clock_;
  FakeSnapshotSource snapshots_;
  EventLoop loop_;
  Monitor monitor_{loop_, snapshots_, {seconds(60), milliseconds(100)}};
  FakeRtnetlinkSource* source_ = nullptr;
  NetlinkComponent* component_ = nullptr;
  std::vector<std::string> events_;
  int publishes_ = 0;
};

TEST_F(NetlinkComponentTest, FollowsTheInventorysRnicsAndKeepsTheNetdevMapCurrent) {
  EXPECT_EQ(monitor_.rnic_netdevs(), std::set<std::string>{"rnic0"});
  ASSERT_EQ(monitor_.state().netdev_links()->count("rnic0"), 1u);
  EXPECT_EQ(monitor_.state().netdev_links()->count("eth0"), 0u);
  EXPECT_TRUE(monitor_.state().netdev_links()->at("rnic0").carrier);
  EXPECT_EQ(Sample("rocewatch_netdev_carrier", "rnic0"), 1);
  EXPECT_EQ(events_, std::vector<std::string>{"rnic0: watching (carrier up, 1 address(es))"});
}

TEST_F(NetlinkComponentTest, FlapIsReportedCountedAndTriggersASettledSnapshot) {
  int takes = snapshots_.takes;
  Push(MakeLink(4, "rnic0", false, 2));
  Push(MakeAddress(4, "10.0.0.2/24", true));
  RunFor(milliseconds(50));
  EXPECT_FALSE(monitor_.state().netdev_links()->at("rnic0").carrier);
  EXPECT_EQ(snapshots_.takes, takes) << "the snapshot waits the settle delay";
  RunFor(milliseconds(100));
  EXPECT_EQ(snapshots_.takes, takes + 1);
  Push(MakeLink(4, "rnic0", true, 3));
  RunFor(seconds(4));  // past the grace period: the address did not return
  EXPECT_EQ(Sample("rocewatch_link_flaps_total", "rnic0"), 1);
  EXPECT_EQ(Sample("rocewatch_ip_lost_during_flap_total", "rnic0"), 1);
  EXPECT_EQ(Sample("rocewatch_ip_missing", "rnic0"), 1);
  EXPECT_EQ(events_[1], "rnic0: carrier down (operstate LOWERLAYERDOWN)");
  EXPECT_EQ(events_[2], "rnic0: address 10.0.0.2/24 removed (lost during a flap)");
  std::vector<std::string> checks;
  for (const Finding& f : monitor_.CurrentFindings()) checks.push_back(f.check);
  EXPECT_NE(std::find(checks.begin(), checks.end(), "ip_missing_after_flap"), checks.end());
  EXPECT_GT(publishes_, 0);
}

TEST_F(NetlinkComponentTest, AnAddressStormIsSummarisedButFlapsInItAreAlwaysNarrated) {
  events_.clear();
  for (int i = 0; i < 500; ++i)
    Push(MakeAddress(4, "10.9.1." + std::to_string(i % 250) + "/" + std::to_string(24 + i / 250)));
  Push(MakeLink(4, "rnic0", false, 2));
  RunFor(milliseconds(10));
  EXPECT_EQ(Sample("rocewatch_netdev_carrier", "rnic0"), 0);
  ASSERT_EQ(events_.size(), 16u + 2u) << ::testing::PrintToString(events_);
  EXPECT_EQ(events_[0], "rnic0: address 10.9.1.0/24 added");
  EXPECT_EQ(events_[16], "rnic0: carrier down (operstate LOWERLAYERDOWN)");
  EXPECT_EQ(events_[17], "484 more address changes in this netlink read, not listed one by one");
  EXPECT_EQ(monitor_.state().netdev_links()->at("rnic0").addresses.size(), 501u);
}

TEST_F(NetlinkComponentTest, MalformedMessagesCountAsSourceErrors) {
  source_->set_malformed(2);
  Push(MakeLink(4, "rnic0", false, 2));
  RunFor(milliseconds(20));
  bool found = false;
  for (const auto& family : monitor_.BuildExposition())
    if (family.name == "rocewatch_source_errors_total")
      for (const auto& m : family.metric)
        found |= !m.label.empty() && m.label[0].value == "netlink" && m.counter.value == 2;
  EXPECT_TRUE(found);
}

// The carrier-down event carries why the link went down, as the driver's link_ext_state says it.
TEST(NetlinkComponentReasonTest, CarrierDownEventCarriesTheLinkExtStateReason) {
  FakeClock clock;
  FakeSnapshotSource snapshots(clock);
  snapshots.node.devices.push_back(RoceDevice("mlx5_0", "rnic0", {}));
  EventLoop loop(clock);
  Monitor monitor(loop, snapshots, {seconds(60), milliseconds(100)});
  auto source = std::make_unique<FakeRtnetlinkSource>();
  FakeRtnetlinkSource* fake = source.get();
  fake->dump().links = {MakeLink(4, "rnic0", true, 1)};
  NetlinkComponent::Options options;
  options.link_down_reasons = true;
  // The ethtool component's service on the node state.
  struct Reasons final : LinkDownReasonSource {
    std::string LinkDownReason(const std::string& netdev) override {
      asked.push_back(netdev);
      return "bad signal integrity (large number of physical errors)";
    }
    std::vector<std::string> asked;
  } reasons;
  monitor.AddComponent(std::make_unique<NetlinkComponent>(options, std::move(source)));
  auto ethtool =
      std::make_unique<StateStubComponent>(StateParts{StatePart::kLinkDownReasons}, "ethtool");
  ethtool->values.link_down_reasons = &reasons;
  monitor.AddComponent(std::move(ethtool));
  std::vector<std::string> events;
  monitor.SetEventObserver([&](double, std::string_view what) { events.emplace_back(what); });
  ASSERT_TRUE(monitor.Start().ok());
  NetlinkMessage down = MakeLink(4, "rnic0", false, 2);
  std::visit([&](auto& x) { x.at = clock.Now(); }, down);
  fake->Push(std::move(down));
  for (int i = 0; i < 5; ++i) {
    clock.Advance(milliseconds(10));
    loop.RunOnce(Duration::zero());
  }
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1],
            "rnic0: carrier down (operstate LOWERLAYERDOWN), link_ext_state: bad signal integrity "
            "(large number of physical errors)");
  EXPECT_EQ(reasons.asked, std::vector<std::string>{"rnic0"});  // only for the carrier loss
  monitor.Stop();
}

}  // namespace
}  // namespace rocewatch
