// The traffic detector inside the Monitor: snapshots in, metrics, events and findings out.
#include "traffic/traffic_component.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include "daemon/monitor.h"
#include "support/fake_clock.h"
#include "support/http_client.h"
#include "support/node_builder.h"
#include "support/state_stub_component.h"
#include "support/test_times.h"
#include "traffic/traffic_samples.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Four rails whose byte counters advance at their rates each time a snapshot is taken.
class MovingRailsSource final : public SnapshotSource {
 public:
  explicit MovingRailsSource(const Clock& clock) : clock_(clock) {
    for (int r = 0; r < 4; ++r) {
      node_.devices.push_back(
          RoceDevice("mlx5_" + std::to_string(r), "eth" + std::to_string(r), {}));
      rates_.push_back(kBusyRailRate);
    }
    last_ = clock_.Now();
  }
  StatusOr<NodeSnapshot> Take() override {
    const double dt = ToSeconds(clock_.Now() - last_);
    last_ = clock_.Now();
    for (size_t r = 0; r < rates_.size(); ++r) {
      PortCounters& c = node_.devices[r].ports[0].counters;
      const auto half = static_cast<uint64_t>(rates_[r] * dt / 2);
      c.transmit_bytes = c.transmit_bytes.value_or(0) + half;
      c.receive_bytes = c.receive_bytes.value_or(0) + half;
    }
    NodeSnapshot copy = node_;
    copy.taken_at = clock_.Now();
    return copy;
  }
  const char* gid_source_name() const override { return "sysfs"; }
  std::vector<double> rates_;

 private:
  const Clock& clock_;
  NodeSnapshot node_;
  MonoTime last_;
};

class TrafficComponentTest : public ::testing::Test {
 protected:
  TrafficComponentTest() : source_(clock_), loop_(clock_), monitor_(loop_, source_, {seconds(1)}) {
    auto component = std::make_unique<TrafficComponent>(TrafficOptions{}, milliseconds(500));
    traffic_ = component.get();
    monitor_.AddComponent(std::move(component));
    // Registered after the traffic component, run before it: it provides the netdev links.
    auto netlink =
        std::make_unique<StateStubComponent>(StateParts{StatePart::kNetdevLinks}, "netlink");
    netlink_ = netlink.get();
    monitor_.AddComponent(std::move(netlink));
    monitor_.SetEventObserver(
        [this](double, std::string_view what) { events_.emplace_back(what); });
  }
  void RunFor(Duration d) {
    for (Duration passed{}; passed < d; passed += milliseconds(100)) {
      clock_.Advance(milliseconds(100));
      loop_.RunOnce(Duration::zero());
    }
  }
  std::optional<double> Sample(const std::string& series) {
    return FindSample(prometheus::TextSerializer().Serialize(monitor_.BuildExposition()), series);
  }

  FakeClock clock_;
  MovingRailsSource source_;
  EventLoop loop_;
  Monitor monitor_;
  TrafficComponent* traffic_ = nullptr;
  StateStubComponent* netlink_ = nullptr;
  std::vector<std::string> events_;
};

TEST_F(TrafficComponentTest, ExportsRateBaselineAndOneHotState) {
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(20));
  const std::string rail = R"({device="mlx5_1",port="1")";
  EXPECT_NEAR(*Sample("rocewatch_traffic_rate_bytes_per_second" + rail + "}"), kBusyRailRate, 1e3);
  EXPECT_NEAR(*Sample("rocewatch_traffic_baseline_bytes_per_second" + rail + "}"), kBusyRailRate,
              1e3);
  EXPECT_EQ(Sample("rocewatch_traffic_state" + rail + R"(,state="normal"})"), 1);
  for (const char* other : {"idle", "degraded", "collapsed", "link_down"}) {
    EXPECT_EQ(Sample("rocewatch_traffic_state" + rail + ",state=\"" + other + "\"}"), 0) << other;
  }
}

TEST_F(TrafficComponentTest, AStoppedRailIsCollapsedWithAnEventAndACriticalFinding) {
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(20));
  source_.rates_[2] = 0;
  RunFor(seconds(5));
  EXPECT_EQ(Sample(R"(rocewatch_traffic_state{device="mlx5_2",port="1",state="collapsed"})"), 1);
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].rfind("mlx5_2/1 traffic normal -> collapsed: fell to 0 B/s", 0), 0u)
      << events_[0];
  std::vector<Finding> findings = monitor_.CurrentFindings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "traffic_collapsed");
  EXPECT_NE(traffic_->RatesLine().find("mlx5_2/1 0 B/s collapsed"), std::string::npos)
      << traffic_->RatesLine();
}

// A checkpoint reaching the rails 5 s apart: the first rail collapses against its siblings, and
// the collapse is withdrawn, with an info event saying why, once the whole node has paused.
TEST_F(TrafficComponentTest, ACollapseWithdrawnByACheckpointIsAnEventAndLeavesNoFinding) {
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(20));
  source_.rates_[2] = 0;
  RunFor(seconds(5));
  ASSERT_EQ(Sample(R"(rocewatch_traffic_state{device="mlx5_2",port="1",state="collapsed"})"), 1);
  for (double& rate : source_.rates_) rate = 0;
  RunFor(seconds(20));
  EXPECT_EQ(Sample(R"(rocewatch_traffic_state{device="mlx5_2",port="1",state="idle"})"), 1);
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1].rfind("mlx5_2/1 traffic collapsed -> idle: collapse withdrawn: every rail "
                             "of the node stopped within 5s of this one (checkpoint spread 15s)",
                             0),
            0u)
      << events_[1];
  EXPECT_NE(events_[1].find("the whole node paused (a checkpoint)"), std::string::npos);
  EXPECT_TRUE(monitor_.CurrentFindings().empty());
}

// Every rail carries traffic no process is seen holding (the sources say nobody: a kernel RDMA
// user), then all of it stops: the detector's "unknown" is exported and the stop is a warning.
TEST_F(TrafficComponentTest, TrafficNoHolderExplainsIsUnknownAndItsStopNeverCritical) {
  auto consumers =
      std::make_unique<StateStubComponent>(StateParts{StatePart::kConsumers}, "consumers");
  ConsumerObservation nobody;
  for (int r = 0; r < 4; ++r)
    nobody.devices["mlx5_" + std::to_string(r)] = {ConsumerKnowledge::kNone, {}};
  consumers->values.consumers = nobody;
  monitor_.AddComponent(std::move(consumers));
  traffic_->UseConsumers();
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(20));
  const std::string rail = R"({device="mlx5_0",port="1")";
  EXPECT_EQ(Sample("rocewatch_traffic_consumers" + rail + R"(,knowledge="unknown"})"), 1);
  EXPECT_EQ(Sample("rocewatch_traffic_consumers" + rail + R"(,knowledge="none"})"), 0);
  const NodeStateView& state = monitor_.state();
  EXPECT_EQ(EffectiveKnowledgeOf(state.consumers(), state.traffic_unexplained(), "mlx5_0"),
            ConsumerKnowledge::kUnknown);
  EXPECT_TRUE(*state.consumer_scan_requested());  // and the daemon looks for the consumer
  for (double& rate : source_.rates_) rate = 0;
  RunFor(std::chrono::minutes(11));  // past the node-stop window
  EXPECT_EQ(Sample(R"(rocewatch_traffic_collapsed_node_wide{device="mlx5_0",port="1"})"), 1);
  std::vector<Finding> findings = monitor_.CurrentFindings();
  ASSERT_EQ(findings.size(), 4u);
  for (const Finding& f : findings) {
    EXPECT_EQ(f.check, "traffic_node_stopped");
    EXPECT_EQ(f.severity, Severity::kWarning);
    EXPECT_NE(f.message.find("kernel RDMA user"), std::string::npos) << f.message;
  }
}

// The carrier of eth3, lost while its rail carries traffic: link_down, never collapsed, and since
// the rail carried traffic a second before (its holders unknown here), a rail lost under a job.
TEST_F(TrafficComponentTest, CarrierLostUnderTrafficIsLinkDownAndARailDownUnderAJob) {
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(20));
  const std::string rail = R"({device="mlx5_3",port="1"})";
  EXPECT_EQ(Sample("rocewatch_rail_down_under_job" + rail), 0);
  NetdevState down;
  down.name = "eth3";
  down.carrier = false;
  netlink_->values.netdev_links["eth3"] = down;
  netlink_->Write();
  source_.rates_[3] = 0;
  RunFor(seconds(10));
  EXPECT_EQ(Sample(R"(rocewatch_traffic_state{device="mlx5_3",port="1",state="link_down"})"), 1);
  EXPECT_EQ(Sample("rocewatch_rail_down_under_job" + rail), 1);
  std::vector<Finding> findings = monitor_.CurrentFindings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "rail_down_under_job");
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].rfind("mlx5_3/1 traffic normal -> link_down: the link went down while the "
                             "rail had carried traffic 1s before (who holds it is unknown)",
                             0),
            0u)
      << events_[0];
  down.carrier = true;  // the link is back
  netlink_->values.netdev_links["eth3"] = down;
  netlink_->Write();
  RunFor(seconds(3));
  EXPECT_EQ(Sample("rocewatch_rail_down_under_job" + rail), 0);
}

TEST_F(TrafficComponentTest, ExtraSnapshotsAfterEventsDoNotShortenTheInterval) {
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(20));
  monitor_.RequestSnapshot("address added");  // 100 ms settle: 100 ms after a periodic poll
  RunFor(milliseconds(300));
  EXPECT_NEAR(*Sample(R"(rocewatch_traffic_rate_bytes_per_second{device="mlx5_0",port="1"})"),
              kBusyRailRate, 1e3);
  EXPECT_EQ(traffic_->detector().ports().size(), 4u);
}

TEST(PortCarrier, PrefersNetlinkThenFallsBackToThePortState) {
  Port port = RocePort(1, "eth0", {});
  port.state = "ACTIVE";
  port.phys_state = "LinkUp";
  std::map<std::string, NetdevState> netdevs;
  EXPECT_EQ(PortCarrier(port, netdevs), std::nullopt);
  port.state = "DOWN";
  EXPECT_EQ(PortCarrier(port, netdevs), false);
  port.state = "ACTIVE";
  port.phys_state = "Polling";
  EXPECT_EQ(PortCarrier(port, netdevs), false);
  netdevs["eth0"].carrier = true;  // netlink knows better
  EXPECT_EQ(PortCarrier(port, netdevs), true);
}

}  // namespace
}  // namespace rocewatch
