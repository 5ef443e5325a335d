// The Monitor and the node state: components run in the order their declarations give, see only
// the parts they declared, and the Monitor does not start on declarations it cannot order.
#include <gtest/gtest.h>

#include "daemon/monitor.h"
#include "support/fake_clock.h"
#include "support/fake_snapshot_source.h"
#include "support/node_builder.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Declares what a test says, records when it ran and what it could read, and writes the netdev
// links (declared or not) with one netdev named after it.
class DeclaringComponent final : public MonitorComponent {
 public:
  DeclaringComponent(std::string name, StateDeclaration declared, std::vector<std::string>& ran)
      : name_(std::move(name)), declared_(declared), ran_(ran) {}
  std::string_view name() const override { return name_; }
  StateDeclaration declaration() const override { return declared_; }
  Status Start(MonitorContext&) override {
    if (phases) phases->push_back("start " + name_);
    return Status::Ok();
  }
  void AfterPoll(MonitorContext&) override {
    if (phases) phases->push_back("after " + name_);
  }
  void Stop(MonitorContext&) override {
    if (phases) phases->push_back("stop " + name_);
  }
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot&) override {
    if (phases) phases->push_back("poll " + name_);
    ran_.push_back(name_);
    const std::map<std::string, NetdevState>* links = ctx.state().netdev_links();
    links_seen = links ? std::optional<size_t>(links->size()) : std::nullopt;
    snapshot_seen = ctx.state().snapshot() != nullptr;
    std::map<std::string, NetdevState> mine;
    mine[name_].carrier = true;
    written = ctx.state_writer().SetNetdevLinks(std::move(mine));
  }
  std::vector<std::string>* phases = nullptr;  // Start, OnSnapshot, AfterPoll and Stop, if set
  std::optional<size_t> links_seen;            // nullopt: refused
  bool snapshot_seen = false;
  Status written;

 private:
  std::string name_;
  StateDeclaration declared_;
  std::vector<std::string>& ran_;
};

class MonitorNodeStateTest : public ::testing::Test {
 protected:
  MonitorNodeStateTest() : source_(clock_), loop_(clock_), monitor_(loop_, source_, {seconds(1)}) {
    source_.node.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2"}));
  }
  DeclaringComponent* Add(std::string name, StateDeclaration declared) {
    auto component = std::make_unique<DeclaringComponent>(std::move(name), declared, ran_);
    DeclaringComponent* view = component.get();
    monitor_.AddComponent(std::move(component));
    return view;
  }
  static StateDeclaration Reads(StatePart part) { return {{}, {part}, {}}; }
  static StateDeclaration Provides(StatePart part) { return {{part}, {}, {}}; }

  FakeClock clock_;
  FakeSnapshotSource source_;
  EventLoop loop_;
  Monitor monitor_;
  std::vector<std::string> ran_;
};

TEST_F(MonitorNodeStateTest, AReaderRunsAfterItsProviderWhateverTheRegistrationOrder) {
  DeclaringComponent* reader = Add("reader", Reads(StatePart::kNetdevLinks));
  DeclaringComponent* provider = Add("provider", Provides(StatePart::kNetdevLinks));
  ASSERT_TRUE(monitor_.Start().ok());
  EXPECT_EQ(ran_, (std::vector<std::string>{"provider", "reader"}));
  EXPECT_EQ(reader->links_seen, 1u) << "this poll's links, written by the provider";
  EXPECT_TRUE(provider->written.ok());
  ASSERT_NE(monitor_.state().netdev_links(), nullptr);
  EXPECT_EQ(monitor_.state().netdev_links()->count("provider"), 1u);
}

TEST_F(MonitorNodeStateTest, StartAndAfterPollFollowTheOrderAndStopReversesIt) {
  std::vector<std::string> phases;
  Add("reader", Reads(StatePart::kNetdevLinks))->phases = &phases;
  Add("provider", Provides(StatePart::kNetdevLinks))->phases = &phases;
  ASSERT_TRUE(monitor_.Start().ok());
  monitor_.Stop();
  EXPECT_EQ(phases, (std::vector<std::string>{"start provider", "start reader", "poll provider",
                                              "poll reader", "after provider", "after reader",
                                              "stop reader", "stop provider"}));
}

TEST_F(MonitorNodeStateTest, AComponentCannotReadOrWriteAPartItDidNotDeclare) {
  Add("provider", Provides(StatePart::kNetdevLinks));
  DeclaringComponent* other = Add("other", Reads(StatePart::kSnapshot));
  ASSERT_TRUE(monitor_.Start().ok());
  EXPECT_TRUE(other->snapshot_seen);
  EXPECT_EQ(other->links_seen, std::nullopt) << "the links were not declared: refused";
  EXPECT_EQ(other->written.code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(monitor_.state().netdev_links()->count("other"), 0u) << "its write was refused";
}

TEST_F(MonitorNodeStateTest, StartFailsOnACycle) {
  StateDeclaration a = Provides(StatePart::kConsumers);
  a.reads = {StatePart::kConsumerScanRequest};
  StateDeclaration b = Provides(StatePart::kConsumerScanRequest);
  b.reads = {StatePart::kConsumers};
  Add("a", a);
  Add("b", b);
  Status started = monitor_.Start();
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(started.message().find("cycle: a -> b -> a"), std::string::npos) << started.message();
  EXPECT_TRUE(ran_.empty());
  EXPECT_EQ(source_.takes, 0) << "nothing started, no snapshot taken";
}

TEST_F(MonitorNodeStateTest, AReadOfThePreviousPollBreaksTheCycle) {
  StateDeclaration a = Provides(StatePart::kConsumers);
  a.reads_previous = {StatePart::kConsumerScanRequest};
  StateDeclaration b = Provides(StatePart::kConsumerScanRequest);
  b.reads = {StatePart::kConsumers};
  Add("b", b);
  Add("a", a);
  ASSERT_TRUE(monitor_.Start().ok());
  EXPECT_EQ(ran_, (std::vector<std::string>{"a", "b"}));
}

TEST_F(MonitorNodeStateTest, StartFailsOnAPartNobodyProvides) {
  Add("reader", Reads(StatePart::kNetdevLinks));
  Status started = monitor_.Start();
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.message(),
            "component reader reads node state part netdev_links, which no component provides");
  EXPECT_TRUE(ran_.empty());
}

TEST_F(MonitorNodeStateTest, TheMonitorProvidesTheSnapshotAndTheRnicNetdevs) {
  StateDeclaration reads;
  reads.reads = {StatePart::kSnapshot, StatePart::kRnicNetdevs};
  DeclaringComponent* reader = Add("reader", reads);
  ASSERT_TRUE(monitor_.Start().ok());
  EXPECT_TRUE(reader->snapshot_seen);
  EXPECT_EQ(*monitor_.state().rnic_netdevs(), std::set<std::string>{"eth0"});
  EXPECT_EQ(monitor_.state().snapshot()->devices.size(), 1u);
}

}  // namespace
}  // namespace rocewatch
