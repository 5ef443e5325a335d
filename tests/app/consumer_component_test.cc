// Consumer tracking inside the Monitor: procfs and kubelet in, the node state's consumers,
// metrics and events out.
#include "job_awareness/consumer_component.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <algorithm>
#include <cerrno>
#include <thread>

#include "daemon/monitor.h"
#include "support/blocking_file_system.h"
#include "support/fake_clock.h"
#include "support/fake_pod_resources_source.h"
#include "support/fake_snapshot_source.h"
#include "support/http_client.h"
#include "support/loop_runner.h"
#include "support/node_builder.h"
#include "support/procfs_fixture.h"
#include "support/state_stub_component.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

class ConsumerComponentTest : public ::testing::Test {
 protected:
  ConsumerComponentTest() : source_(clock_), loop_(clock_), monitor_(loop_, source_, {seconds(1)}) {
    source_.node.devices = {RoceDevice("mlx5_0", "eth0", {}), RoceDevice("mlx5_1", "eth1", {})};
    node_.Uverbs(0, "mlx5_0").Uverbs(1, "mlx5_1");
    node_.fs().AddLink("/host/sys/class/infiniband/mlx5_1/device", "../../../0000:3b:00.2");
    auto kubelet = std::make_unique<FakePodResourcesSource>();
    kubelet_ = kubelet.get();
    monitor_.AddComponent(std::make_unique<ConsumerComponent>(node_.fs(), node_.paths(), Options(),
                                                              std::move(kubelet)));
    auto traffic = std::make_unique<StateStubComponent>(
        StateParts{StatePart::kTrafficUnexplained, StatePart::kConsumerScanRequest}, "traffic");
    traffic_ = traffic.get();
    monitor_.AddComponent(std::move(traffic));
    monitor_.SetEventObserver(
        [this](double, std::string_view what) { events_.emplace_back(what); });
  }
  static ConsumerOptions Options() {
    ConsumerOptions options;
    options.scan_interval = seconds(10);
    options.kubelet_interval = seconds(10);
    return options;
  }
  void RunFor(Duration d) { RunLoopFor(clock_, loop_, d); }
  // What the traffic component provides: traffic no known consumer explains on `devices`, and so
  // a full scan asked for (at every poll until the next call).
  void TrafficUnexplained(std::set<std::string> devices) {
    traffic_->values.consumer_scan_requested = !devices.empty();
    traffic_->values.traffic_unexplained = std::move(devices);
    traffic_->Write();
  }
  void RequestFullScan() {
    traffic_->values.consumer_scan_requested = true;
    traffic_->Write();
  }
  ConsumerKnowledge KnowledgeOf(const std::string& device) const {
    return EffectiveKnowledgeOf(monitor_.state().consumers(), nullptr, device);
  }
  std::string Exposition() {
    return prometheus::TextSerializer().Serialize(monitor_.BuildExposition());
  }

  FakeClock clock_;
  ProcfsFixture node_;
  FakeSnapshotSource source_;
  EventLoop loop_;
  Monitor monitor_;
  FakePodResourcesSource* kubelet_ = nullptr;
  StateStubComponent* traffic_ = nullptr;
  std::vector<std::string> events_;
};

TEST_F(ConsumerComponentTest, ExportsConsumersAndWhetherTheirAbsenceIsKnown) {
  node_.Consumer(4100, 0, "python3", {"SLURM_JOB_ID=8812"}, "0::/\n",
                 "7f00-7f10 r-xp 0 fd:01 1 /usr/lib/libnccl.so.2.18.3\n");
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(2));
  const std::string text = Exposition();
  EXPECT_EQ(FindSample(text, "rocewatch_rdma_consumers{device=\"mlx5_0\"}"), 1);
  EXPECT_EQ(FindSample(text, "rocewatch_rdma_consumers{device=\"mlx5_1\"}"), 0);
  EXPECT_EQ(FindSample(text, "rocewatch_rdma_consumers_known{device=\"mlx5_1\"}"), 1);
  EXPECT_EQ(FindSample(text,
                       "rocewatch_rdma_consumer_info{device=\"mlx5_0\",pid=\"4100\","
                       "comm=\"python3\",pod=\"\",namespace=\"\",container=\"\","
                       "job=\"8812\",nccl_version=\"2.18.3\"}"),
            1);
  EXPECT_EQ(FindSample(text, "rocewatch_consumer_source_up{source=\"procfs\"}"), 1);
  EXPECT_EQ(FindSample(text, "rocewatch_consumer_source_up{source=\"kubelet\"}"), 1);
  EXPECT_EQ(KnowledgeOf("mlx5_1"), ConsumerKnowledge::kNone);
}

// A kernel RDMA user (NFS over RDMA, NVMe-oF): the scan sees nobody on mlx5_1, while the traffic
// detector sees traffic there. What is exported is the detector's view: unknown, not "nobody".
TEST_F(ConsumerComponentTest, TrafficNoHolderExplainsMakesTheConsumersUnknown) {
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(2));
  ASSERT_EQ(KnowledgeOf("mlx5_1"), ConsumerKnowledge::kNone);
  TrafficUnexplained({"mlx5_1"});
  std::string text = Exposition();
  EXPECT_EQ(FindSample(text, "rocewatch_rdma_consumers_known{device=\"mlx5_1\"}"), 0);
  EXPECT_EQ(FindSample(text, "rocewatch_rdma_consumers{device=\"mlx5_1\"}"), 0);
  EXPECT_EQ(FindSample(text, "rocewatch_rdma_consumers_known{device=\"mlx5_0\"}"), 1);
  const NodeStateView& state = monitor_.state();
  EXPECT_EQ(EffectiveKnowledgeOf(state.consumers(), state.traffic_unexplained(), "mlx5_1"),
            ConsumerKnowledge::kUnknown);
  EXPECT_NE(DescribeEffectiveConsumers(state.consumers(), state.traffic_unexplained(), "mlx5_1")
                .find("kernel RDMA user"),
            std::string::npos);
  TrafficUnexplained({});  // a consumer was found, or the job forgotten
  text = Exposition();
  EXPECT_EQ(FindSample(text, "rocewatch_rdma_consumers_known{device=\"mlx5_1\"}"), 1);
}

TEST_F(ConsumerComponentTest, ABlindScanIsUnknownAndCountedNotIdle) {
  node_.Consumer(4100, 0);
  node_.Add(ProcfsFixture::Plain(4200));
  node_.fs().FailReads(node_.ProcessDir(4200) + "/fd", EACCES);
  kubelet_->answer = Status::Unavailable("kubelet pod-resources at unix:///fake: refused");
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(2));
  const std::string text = Exposition();
  EXPECT_EQ(FindSample(text, "rocewatch_rdma_consumers_known{device=\"mlx5_1\"}"), 0);
  EXPECT_EQ(FindSample(text, "rocewatch_consumer_blind_processes"), 1);
  EXPECT_EQ(FindSample(text, "rocewatch_consumer_source_up{source=\"kubelet\"}"), 0);
  EXPECT_GE(FindSample(text, "rocewatch_source_errors_total{source=\"kubelet\"}").value_or(0), 1);
  EXPECT_GE(FindSample(text, "rocewatch_source_errors_total{source=\"procfs\"}").value_or(0), 1);
  EXPECT_EQ(KnowledgeOf("mlx5_1"), ConsumerKnowledge::kUnknown);
}

// A failed read is never silence: the component is unhealthy and a read_failed finding per source
// names what failed, while it lasts; once the reads succeed again both are gone.
TEST_F(ConsumerComponentTest, FailedReadsAreAFindingAndUnhealthyWhileTheyLast) {
  node_.Consumer(4100, 0);
  node_.Add(ProcfsFixture::Plain(4200));
  node_.fs().FailReads(node_.ProcessDir(4200) + "/fd", EIO);
  kubelet_->answer = Status::Unavailable("kubelet pod-resources at unix:///fake: refused");
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(2));
  EXPECT_EQ(FindSample(Exposition(), "rocewatch_component_success{component=\"consumers\"}"), 0);
  std::vector<Finding> findings = monitor_.CurrentFindings();
  auto find = [&](const std::string& subject) -> const Finding* {
    for (const Finding& f : findings)
      if (f.check == "read_failed" && f.subject == subject) return &f;
    return nullptr;
  };
  const Finding* procfs = find("procfs");
  ASSERT_NE(procfs, nullptr);
  EXPECT_EQ(procfs->severity, Severity::kWarning);
  EXPECT_NE(procfs->message.find("/host/proc/4200/fd: Input/output error (EIO)"), std::string::npos)
      << procfs->message;
  EXPECT_NE(procfs->message.find("whether 1 process holds an RDMA device is unknown"),
            std::string::npos);
  const Finding* kubelet = find("kubelet");
  ASSERT_NE(kubelet, nullptr);
  EXPECT_NE(kubelet->message.find("refused"), std::string::npos);

  // Still unreadable at the next scan (not read again yet): still named.
  RunFor(seconds(10));
  findings = monitor_.CurrentFindings();
  EXPECT_NE(find("procfs"), nullptr);

  node_.fs().ClearFailures();
  kubelet_->answer = std::vector<PodDeviceAllocation>{};
  RunFor(seconds(50));
  RequestFullScan();  // a full scan reads the blind process again (at most once a minute)
  RunFor(seconds(2));
  TrafficUnexplained({});
  findings = monitor_.CurrentFindings();
  EXPECT_EQ(find("procfs"), nullptr);
  EXPECT_EQ(find("kubelet"), nullptr);
  EXPECT_EQ(FindSample(Exposition(), "rocewatch_component_success{component=\"consumers\"}"), 1);
}

// A refused read is the daemon's identity (or a sandbox's init), shown as a blind process: no
// finding, and the component stays healthy.
TEST_F(ConsumerComponentTest, ARefusedProcessIsBlindNotAFailedRead) {
  node_.Add(ProcfsFixture::Plain(4200));
  node_.fs().FailReads(node_.ProcessDir(4200) + "/fd", EACCES);
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(2));
  for (const Finding& f : monitor_.CurrentFindings()) EXPECT_NE(f.check, "read_failed");
  EXPECT_EQ(FindSample(Exposition(), "rocewatch_component_success{component=\"consumers\"}"), 1);
  EXPECT_EQ(FindSample(Exposition(), "rocewatch_consumer_blind_processes"), 1);
}

// No pod-resources socket is a state (not a Kubernetes node), not a failed read.
TEST_F(ConsumerComponentTest, NoKubeletSocketIsNoFailedRead) {
  kubelet_->answer = Status::NotFound("no pod-resources socket at /fake");
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(2));
  for (const Finding& f : monitor_.CurrentFindings()) EXPECT_NE(f.check, "read_failed");
  EXPECT_EQ(FindSample(Exposition(), "rocewatch_component_success{component=\"consumers\"}"), 1);
}

TEST_F(ConsumerComponentTest, AHangingKubeletNeverHoldsUpTheScans) {
  kubelet_->hang = true;
  ASSERT_TRUE(monitor_.Start().ok());
  node_.Consumer(4100, 1);
  RunFor(seconds(25));
  EXPECT_EQ(KnowledgeOf("mlx5_1"), ConsumerKnowledge::kPresent);
  EXPECT_EQ(kubelet_->requests, 3);  // asked once per scan (at 0, 10 and 20 s)
}

TEST_F(ConsumerComponentTest, KubeletPodsNameTheirDevicesAndChangesAreEvents) {
  ASSERT_TRUE(monitor_.Start().ok());
  RunFor(seconds(1));
  kubelet_->answer = std::vector<PodDeviceAllocation>{
      {"trainer-0", "ml", "main", "nvidia.com/sriov_rdma", {"0000:3b:00.2"}}};
  RunFor(seconds(11));
  EXPECT_EQ(DescribeEffectiveConsumers(monitor_.state().consumers(), nullptr, "mlx5_1"),
            "pod ml/trainer-0");
  ASSERT_FALSE(events_.empty());
  EXPECT_EQ(events_.back(), "consumers of mlx5_1: none -> pod ml/trainer-0");
}

// The kubelet is asked at the first scan, every kubelet_interval, and with a requested full scan.
TEST(ConsumerComponentKubeletTest, AskedEveryIntervalAndWithEveryFullScan) {
  FakeClock clock;
  ProcfsFixture node;
  FakeSnapshotSource source(clock);
  source.node.devices = {RoceDevice("mlx5_0", "eth0", {})};
  EventLoop loop(clock);
  Monitor monitor(loop, source, {seconds(1)});
  auto kubelet = std::make_unique<FakePodResourcesSource>();
  FakePodResourcesSource& asked = *kubelet;
  ConsumerOptions options;  // scans every 15 s, the kubelet every minute
  monitor.AddComponent(
      std::make_unique<ConsumerComponent>(node.fs(), node.paths(), options, std::move(kubelet)));
  auto stub = std::make_unique<StateStubComponent>(
      StateParts{StatePart::kTrafficUnexplained, StatePart::kConsumerScanRequest}, "traffic");
  StateStubComponent& traffic = *stub;
  monitor.AddComponent(std::move(stub));
  ASSERT_TRUE(monitor.Start().ok());
  RunLoopFor(clock, loop, seconds(59));
  EXPECT_EQ(asked.requests, 1);  // the first scan
  RunLoopFor(clock, loop, seconds(62));
  EXPECT_EQ(asked.requests, 3);                   // at 60 and 120 s, not at every 15 s scan
  traffic.values.consumer_scan_requested = true;  // traffic no known consumer explains
  traffic.Write();
  RunLoopFor(clock, loop, seconds(2));
  EXPECT_EQ(asked.requests, 4);
}

// Traffic that no known consumer explains asks for a full scan at every snapshot. The component
// honours it at most once per min_full_scan_interval (1 min), doubles the wait after each one that
// finds nothing new, and returns to the minimum once one finds a consumer the incremental scans
// missed (a known process that opened a device since it was last looked at).
TEST_F(ConsumerComponentTest, RequestedFullScansBackOffUntilOneFindsAConsumer) {
  node_.Consumer(4100, 0);
  node_.Add(ProcfsFixture::Plain(4200));
  // A full scan reads the device of every uverbs descriptor again; the incremental ones keep it.
  const std::string ibdev = "/host/sys/class/infiniband_verbs/uverbs0/ibdev";
  ASSERT_TRUE(monitor_.Start().ok());
  int second = 0;
  auto full_scans_by = [&](int until) {
    for (; second < until; ++second) {
      RequestFullScan();
      RunFor(seconds(1));
    }
    return node_.fs().ReadCount(ibdev);
  };
  EXPECT_EQ(full_scans_by(59), 1u);  // the first scan only
  EXPECT_EQ(full_scans_by(61), 2u);  // 1 min after it; nothing new: the wait doubles to 2 min
  EXPECT_EQ(full_scans_by(179), 2u);
  EXPECT_EQ(full_scans_by(181), 3u);  // then 4 min
  EXPECT_EQ(full_scans_by(419), 3u);
  EXPECT_EQ(full_scans_by(421), 4u);  // then 8 min
  node_.fs().AddLink(node_.ProcessDir(4200) + "/fd/9", "/dev/infiniband/uverbs1");
  EXPECT_EQ(full_scans_by(899), 4u);
  EXPECT_EQ(KnowledgeOf("mlx5_1"), ConsumerKnowledge::kNone);  // not looked at yet
  EXPECT_EQ(full_scans_by(901), 5u);                           // finds 4200: back to 1 min
  EXPECT_EQ(KnowledgeOf("mlx5_1"), ConsumerKnowledge::kPresent);
  EXPECT_EQ(full_scans_by(959), 5u);
  EXPECT_EQ(full_scans_by(961), 6u);
  // Without requests, no full scan at all.
  TrafficUnexplained({});
  RunFor(seconds(600));
  EXPECT_EQ(node_.fs().ReadCount(ibdev), 6u);
}

// A procfs read that does not return (a process stuck in the kernel holds the mm lock its maps
// read takes): the scan is given up on past the deadline instead of holding the loop, the read is
// listed as stuck (source "procfs"), and the next scan, on a new thread, fails that read at once
// (read_failed names it) while the other consumers are still seen.
TEST(ConsumerComponentStuckReadTest, AStuckProcfsReadIsGivenUpOnAndTheRestIsStillScanned) {
  FakeClock clock;
  ProcfsFixture node;
  FakeSnapshotSource source(clock);
  source.node.devices = {RoceDevice("mlx5_0", "eth0", {})};
  node.Uverbs(0, "mlx5_0");
  node.Consumer(4100, 0, "python3", {}, "0::/\n",
                "7f00-7f10 r-xp 0 fd:01 1 /usr/lib/libnccl.so.2.18.3\n");
  node.Consumer(4200, 0, "torchrun", {}, "0::/\n",
                "7f00-7f10 r-xp 0 fd:01 1 /usr/lib/libnccl.so.2.21.5\n");
  BlockingFileSystem procfs(node.fs());
  const std::string stuck_path = node.ProcessDir(4200) + "/maps";
  procfs.Block(stuck_path);
  auto stuck = std::make_shared<StuckCalls>();
  GuardedReaderOptions reads;
  reads.stuck = stuck;
  reads.deadline = std::chrono::milliseconds(50);
  ConsumerOptions options;
  options.scan_interval = seconds(10);
  EventLoop loop(clock);
  Monitor monitor(loop, source, {seconds(1)});
  monitor.AddComponent(
      std::make_unique<ConsumerComponent>(procfs, node.paths(), options, nullptr, reads));
  monitor.AddComponent(std::make_unique<StateStubComponent>(
      StateParts{StatePart::kTrafficUnexplained, StatePart::kConsumerScanRequest}, "traffic"));
  ASSERT_TRUE(monitor.Start().ok());  // the first scan gets stuck in 4200's maps

  ASSERT_EQ(stuck->List().size(), 1u);
  EXPECT_EQ(stuck->List()[0].source, "procfs");
  EXPECT_EQ(stuck->List()[0].what, stuck_path);
  EXPECT_EQ(stuck->abandoned_threads(), 1);
  std::string text = prometheus::TextSerializer().Serialize(monitor.BuildExposition());
  EXPECT_GE(FindSample(text, "rocewatch_source_errors_total{source=\"procfs\"}").value_or(0), 1);

  RunLoopFor(clock, loop, seconds(11));  // the next scan, on a new thread
  const std::optional<ConsumerObservation>& seen = *monitor.state().consumers();
  ASSERT_TRUE(seen.has_value());
  std::vector<int> pids;
  for (const RailConsumer& c : seen->ConsumersOf("mlx5_0")) pids.push_back(c.pid);
  std::sort(pids.begin(), pids.end());
  EXPECT_EQ(pids, (std::vector<int>{4100, 4200}));
  bool named = false;
  for (const Finding& f : monitor.CurrentFindings())
    named = named || (f.check == "read_failed" && f.subject == "procfs" &&
                      f.message.find(stuck_path) != std::string::npos);
  EXPECT_TRUE(named);

  procfs.Release();  // the stuck read returns: its thread ends on its own
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (stuck->abandoned_threads() != 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
  EXPECT_EQ(stuck->abandoned_threads(), 0);
  EXPECT_EQ(stuck->size(), 0u);
}

}  // namespace
}  // namespace rocewatch
