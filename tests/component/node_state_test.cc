// The node state contract: a component reads and writes only the parts it declared, and the
// Monitor's order follows the declarations.
#include "component/node_state.h"

#include <gtest/gtest.h>

#include "component/component_order.h"

namespace rocewatch {
namespace {

TEST(NodeStateViewTest, AComponentReadsOnlyThePartsItDeclared) {
  NodeState state;
  state.netdev_links["eth0"].carrier = true;
  state.consumers = ConsumerObservation{};
  StateDeclaration traffic;
  traffic.reads = {StatePart::kNetdevLinks};
  NodeStateView view(state, traffic, "traffic");
  ASSERT_NE(view.netdev_links(), nullptr);
  EXPECT_TRUE(view.netdev_links()->at("eth0").carrier);
  EXPECT_EQ(view.refused(), 0u);
  EXPECT_EQ(view.consumers(), nullptr) << "consumers were not declared";
  EXPECT_EQ(view.snapshot(), nullptr);
  EXPECT_EQ(view.link_down_reasons(), nullptr);
  EXPECT_EQ(view.refused(), 3u);
}

TEST(NodeStateViewTest, AReadOfThePreviousPollAndAProvidedPartAreReadable) {
  NodeState state;
  state.consumer_scan_requested = true;
  StateDeclaration consumers;
  consumers.provides = {StatePart::kConsumers};
  consumers.reads_previous = {StatePart::kConsumerScanRequest};
  NodeStateView view(state, consumers, "consumers");
  ASSERT_NE(view.consumer_scan_requested(), nullptr);
  EXPECT_TRUE(*view.consumer_scan_requested());
  ASSERT_NE(view.consumers(), nullptr);
  EXPECT_FALSE(view.consumers()->has_value());
  EXPECT_EQ(view.traffic_unexplained(), nullptr);
}

TEST(NodeStateWriterTest, AComponentWritesOnlyThePartsItProvides) {
  NodeState state;
  NodeStateWriter netlink(state, {StatePart::kNetdevLinks}, "netlink");
  std::map<std::string, NetdevState> links;
  links["eth0"].carrier = true;
  EXPECT_TRUE(netlink.SetNetdevLinks(links).ok());
  EXPECT_EQ(state.netdev_links.count("eth0"), 1u);

  Status refused = netlink.SetConsumerScanRequested(true);
  EXPECT_EQ(refused.code(), StatusCode::kPermissionDenied);
  EXPECT_NE(refused.message().find("netlink"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("consumer_scan_request"), std::string::npos);
  EXPECT_FALSE(state.consumer_scan_requested);
  EXPECT_FALSE(netlink.SetTrafficUnexplained({"mlx5_0"}).ok());
  EXPECT_TRUE(state.traffic_unexplained.empty());
  EXPECT_FALSE(netlink.SetConsumers(ConsumerObservation{}).ok());
  EXPECT_FALSE(state.consumers.has_value());
}

TEST(EffectiveConsumersTest, NobodyOnADeviceWithUnexplainedTrafficIsUnknown) {
  std::optional<ConsumerObservation> seen = ConsumerObservation{};
  seen->devices["mlx5_0"] = {ConsumerKnowledge::kNone, {}};
  const std::set<std::string> unexplained = {"mlx5_0"};
  EXPECT_EQ(EffectiveKnowledgeOf(&seen, nullptr, "mlx5_0"), ConsumerKnowledge::kNone);
  EXPECT_EQ(EffectiveKnowledgeOf(&seen, &unexplained, "mlx5_0"), ConsumerKnowledge::kUnknown);
  EXPECT_NE(DescribeEffectiveConsumers(&seen, &unexplained, "mlx5_0").find("kernel RDMA user"),
            std::string::npos);
  const std::optional<ConsumerObservation> none;
  EXPECT_EQ(DescribeEffectiveConsumers(&none, &unexplained, "mlx5_0"), "unknown");
}

// The daemon's components, as they declare themselves (registration order of BuildComponents).
std::vector<DeclaredComponent> DaemonLike() {
  std::vector<DeclaredComponent> c(5);
  c[0].name = "netlink";
  c[0].declaration.provides = {StatePart::kNetdevLinks};
  c[0].declaration.reads = {StatePart::kRnicNetdevs};
  c[0].declaration.reads_previous = {StatePart::kLinkDownReasons};
  c[1].name = "consumers";
  c[1].declaration.provides = {StatePart::kConsumers};
  c[1].declaration.reads_previous = {StatePart::kConsumerScanRequest};
  c[2].name = "traffic";
  c[2].declaration.provides = {StatePart::kConsumerScanRequest};
  c[2].declaration.reads = {StatePart::kConsumers, StatePart::kNetdevLinks};
  c[3].name = "ethtool";
  c[3].declaration.provides = {StatePart::kLinkDownReasons};
  c[3].declaration.reads = {StatePart::kNetdevLinks};
  c[4].name = "restart_state";
  return c;
}

const StateParts kMonitorParts = {StatePart::kSnapshot, StatePart::kRnicNetdevs};

TEST(ComponentOrderTest, ReadsOfThePreviousPollBreakTheLoopsAndRegistrationOrderBreaksTies) {
  StatusOr<std::vector<size_t>> order = OrderComponents(DaemonLike(), kMonitorParts);
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  EXPECT_EQ(*order, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(ComponentOrderTest, AProviderRegisteredLaterRunsFirst) {
  std::vector<DeclaredComponent> c = DaemonLike();
  std::swap(c[0], c[3]);  // ethtool registered before netlink, whose links it reads
  StatusOr<std::vector<size_t>> order = OrderComponents(c, kMonitorParts);
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  EXPECT_EQ(*order, (std::vector<size_t>{1, 3, 0, 2, 4}));
}

TEST(ComponentOrderTest, ACycleOfThisPollsReadsIsAnError) {
  std::vector<DeclaredComponent> c = DaemonLike();
  c[1].declaration.reads = {StatePart::kConsumerScanRequest};  // not of the previous poll
  StatusOr<std::vector<size_t>> order = OrderComponents(c, kMonitorParts);
  ASSERT_FALSE(order.ok());
  EXPECT_EQ(order.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(order.status().message().find("consumers -> traffic -> consumers"), std::string::npos)
      << order.status().message();
  EXPECT_EQ(order.status().message().find('\n'), std::string::npos);
}

TEST(ComponentOrderTest, APartNobodyProvidesIsAnError) {
  std::vector<DeclaredComponent> c = DaemonLike();
  c.erase(c.begin() + 1);  // no consumers component
  StatusOr<std::vector<size_t>> order = OrderComponents(c, kMonitorParts);
  ASSERT_FALSE(order.ok());
  EXPECT_EQ(order.status().message(),
            "component traffic reads node state part consumers, which no component provides");
}

TEST(ComponentOrderTest, APartProvidedTwiceIsAnError) {
  std::vector<DeclaredComponent> c = DaemonLike();
  c[4].declaration.provides = {StatePart::kNetdevLinks};
  StatusOr<std::vector<size_t>> order = OrderComponents(c, kMonitorParts);
  ASSERT_FALSE(order.ok());
  EXPECT_NE(order.status().message().find("both component netlink and component restart_state"),
            std::string::npos)
      << order.status().message();
  c[4].declaration.provides = {StatePart::kSnapshot};
  EXPECT_NE(OrderComponents(c, kMonitorParts).status().message().find("the monitor"),
            std::string::npos);
}

}  // namespace
}  // namespace rocewatch
