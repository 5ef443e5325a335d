// The inventory's exposition is built once and reused while only the byte counters change: the
// reused families must equal what a fresh build gives, poll after poll.

#include "inventory/inventory_component.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <memory>
#include <sstream>

#include "daemon/monitor.h"
#include "support/fake_clock.h"
#include "support/fake_snapshot_source.h"
#include "support/node_builder.h"

namespace rocewatch {
namespace {

class InventoryComponentTest : public ::testing::Test {
 protected:
  InventoryComponentTest() : source_(clock_), loop_(clock_) {
    for (int rail = 0; rail < 2; ++rail) {
      Device device = RoceDevice("mlx5_" + std::to_string(rail), "eth" + std::to_string(rail),
                                 {"10.0." + std::to_string(rail) + ".2"});
      PortCounters& counters = device.ports[0].counters;
      counters.counters = {{"port_rcv_data", 10}, {"port_xmit_data", 20}, {"symbol_error", 0}};
      counters.transmit_bytes = 80;
      counters.receive_bytes = 40;
      counters.hw_counters = {{"out_of_sequence", 3}};
      source_.node.devices.push_back(device);
    }
    auto component = std::make_unique<InventoryComponent>();
    component_ = component.get();
    monitor_.AddComponent(std::move(component));
    EXPECT_TRUE(monitor_.Start().ok());
  }
  void SetBytes(int rail, uint64_t units) {
    PortCounters& counters = source_.node.devices[rail].ports[0].counters;
    counters.counters["port_xmit_data"] = units;
    counters.counters["port_rcv_data"] = units + 1;
    counters.transmit_bytes = units * 4;
    counters.receive_bytes = (units + 1) * 4;
  }
  // The inventory's exposition now, and what a component that never saw a snapshot builds.
  static std::string Text(const std::vector<prometheus::MetricFamily>& families) {
    std::ostringstream out;
    prometheus::TextSerializer().Serialize(out, families);
    return out.str();
  }
  std::string Kept() {
    MetricFamilies out;
    component_->AppendMetrics(monitor_, out);
    return Text(out.Take());
  }
  std::string Fresh() {
    MetricFamilies out;
    InventoryComponent().AppendMetrics(monitor_, out);
    return Text(out.Take());
  }

  FakeClock clock_;
  FakeSnapshotSource source_;
  EventLoop loop_;
  Monitor monitor_{loop_, source_, {}};
  InventoryComponent* component_ = nullptr;
};

TEST_F(InventoryComponentTest, OnlyByteCountersChangedReusesTheFamiliesWithTheNewValues) {
  Kept();  // the first exposition is built
  const uint64_t builds = component_->builds();
  for (uint64_t units = 100; units < 105; ++units) {
    SetBytes(0, units);
    SetBytes(1, 2 * units);
    ASSERT_TRUE(monitor_.PollNow("test").ok());
    EXPECT_EQ(Kept(), Fresh());
  }
  EXPECT_NE(Kept().find("rocewatch_port_transmit_bytes_total{device=\"mlx5_1\",port=\"1\"} 832"),
            std::string::npos);
  EXPECT_EQ(component_->builds(), builds);
  EXPECT_EQ(component_->reuses(), 6u);
}

TEST_F(InventoryComponentTest, AnyOtherChangeBuildsAgain) {
  Kept();
  const uint64_t builds = component_->builds();
  source_.node.devices[1].ports[0].counters.hw_counters["out_of_sequence"] = 4;
  ASSERT_TRUE(monitor_.PollNow("test").ok());
  EXPECT_EQ(Kept(), Fresh());
  source_.node.devices[0].ports[0].state = "DOWN";
  ASSERT_TRUE(monitor_.PollNow("test").ok());
  EXPECT_EQ(Kept(), Fresh());
  source_.node.devices[0].ports[0].counters.transmit_bytes.reset();  // a failed read
  ASSERT_TRUE(monitor_.PollNow("test").ok());
  EXPECT_EQ(Kept(), Fresh());
  source_.node.devices.pop_back();
  ASSERT_TRUE(monitor_.PollNow("test").ok());
  EXPECT_EQ(Kept(), Fresh());
  EXPECT_GE(component_->builds(), builds + 4);
}

TEST(SameButByteCountersTest, ByteCounterValuesAloneDoNotCount) {
  NodeSnapshot a;
  a.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2"}));
  a.devices[0].ports[0].counters.counters = {{"port_xmit_data", 1}, {"symbol_error", 0}};
  NodeSnapshot b = a;
  b.devices[0].ports[0].counters.counters["port_xmit_data"] = 2;
  EXPECT_TRUE(SameButByteCounters(a, b));
  b.devices[0].ports[0].counters.counters["symbol_error"] = 1;
  EXPECT_FALSE(SameButByteCounters(a, b));
  b = a;
  b.devices[0].ports[0].gids.pop_back();
  EXPECT_FALSE(SameButByteCounters(a, b));
}

}  // namespace
}  // namespace rocewatch
