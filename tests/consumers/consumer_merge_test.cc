#include "job_awareness/consumer_merge.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

const std::vector<std::string> kDevices = {"mlx5_0", "mlx5_1"};

ProcfsConsumerScan CompleteScan() {
  ProcfsConsumerScan scan;
  scan.procfs_readable = true;
  scan.host_namespace = true;
  return scan;
}

RailConsumer Process(int pid, const std::string& pod = "") {
  RailConsumer c;
  c.pid = pid;
  c.comm = "python3";
  c.pod = pod;
  return c;
}

KubeletAnswer Kubelet(std::vector<PodDeviceAllocation> allocations) {
  KubeletAnswer answer;
  answer.source = "unix:///kubelet.sock";
  answer.allocations = std::move(allocations);
  answer.pci_devices = {{"0000:3b:00.2", "mlx5_1"}};
  return answer;
}

TEST(ConsumerMergeTest, ACompleteProcfsScanProvesAbsence) {
  ProcfsConsumerScan scan = CompleteScan();
  scan.consumers["mlx5_0"] = {Process(4100)};
  ConsumerObservation seen = MergeConsumers(kDevices, &scan, nullptr);
  EXPECT_EQ(seen.KnowledgeOf("mlx5_0"), ConsumerKnowledge::kPresent);
  EXPECT_EQ(seen.KnowledgeOf("mlx5_1"), ConsumerKnowledge::kNone);
  EXPECT_EQ(seen.sources, std::vector<std::string>{"procfs"});
  EXPECT_TRUE(seen.blind_spots.empty());
}

TEST(ConsumerMergeTest, AnIncompleteScanLeavesAbsenceUnknown) {
  ProcfsConsumerScan scan = CompleteScan();
  scan.unreadable_pids = {4200};
  scan.consumers["mlx5_0"] = {Process(4100)};
  ConsumerObservation seen = MergeConsumers(kDevices, &scan, nullptr);
  EXPECT_EQ(seen.KnowledgeOf("mlx5_0"), ConsumerKnowledge::kPresent);
  EXPECT_EQ(seen.KnowledgeOf("mlx5_1"), ConsumerKnowledge::kUnknown);
  ASSERT_EQ(seen.blind_spots.size(), 1u);
  EXPECT_NE(seen.blind_spots[0].find("4200"), std::string::npos);
  EXPECT_NE(seen.blind_spots[0].find("CAP_SYS_PTRACE"), std::string::npos);
}

TEST(ConsumerMergeTest, WithoutProcfsTheKubeletDecidesPerDeviceOrForTheNode) {
  ProcfsConsumerScan blind;  // a pod without hostPID: procfs_readable but not the host's
  blind.procfs_readable = true;
  KubeletAnswer vf =
      Kubelet({{"trainer-0", "ml", "main", "nvidia.com/sriov_rdma", {"0000:3b:00.2"}}});
  ConsumerObservation seen = MergeConsumers(kDevices, &blind, &vf);
  EXPECT_EQ(seen.KnowledgeOf("mlx5_1"), ConsumerKnowledge::kPresent);
  EXPECT_EQ(seen.ConsumersOf("mlx5_1")[0].pod_namespace, "ml");
  EXPECT_EQ(seen.KnowledgeOf("mlx5_0"), ConsumerKnowledge::kNone);  // no other pod holds RDMA

  KubeletAnswer shared = Kubelet({{"trainer-0", "ml", "main", "rdma/hca_shared_devices_a", {"r1"}},
                                  {"web-1", "shop", "nginx", "cpu", {}}});
  seen = MergeConsumers(kDevices, &blind, &shared);
  EXPECT_EQ(seen.KnowledgeOf("mlx5_0"), ConsumerKnowledge::kPresent);  // a job holds the node
  EXPECT_EQ(seen.DescribeConsumers("mlx5_0"), "pod ml/trainer-0");

  KubeletAnswer idle = Kubelet({{"web-1", "shop", "nginx", "cpu", {}}});
  EXPECT_EQ(MergeConsumers(kDevices, &blind, &idle).KnowledgeOf("mlx5_0"),
            ConsumerKnowledge::kNone);
}

TEST(ConsumerMergeTest, AFailedKubeletCallIsABlindSpotNotAnIdleNode) {
  ProcfsConsumerScan blind;
  KubeletAnswer failed;
  failed.status = Status::IoError("kubelet pod-resources at unix:///k.sock: no answer within 2s");
  ConsumerObservation seen = MergeConsumers(kDevices, &blind, &failed);
  EXPECT_EQ(seen.KnowledgeOf("mlx5_0"), ConsumerKnowledge::kUnknown);
  EXPECT_NE(seen.blind_spots.back().find("no answer within 2s"), std::string::npos);
}

TEST(ConsumerMergeTest, KubeletNamesThePodsOfProcfsConsumers) {
  ProcfsConsumerScan scan = CompleteScan();
  scan.consumers["mlx5_1"] = {Process(4100, "trainer-0")};
  KubeletAnswer vf =
      Kubelet({{"trainer-0", "ml", "main", "nvidia.com/sriov_rdma", {"0000:3b:00.2"}}});
  ConsumerObservation seen = MergeConsumers(kDevices, &scan, &vf);
  ASSERT_EQ(seen.ConsumersOf("mlx5_1").size(), 1u);  // one consumer, not the process and its pod
  EXPECT_EQ(seen.ConsumersOf("mlx5_1")[0].pod_namespace, "ml");
  EXPECT_EQ(seen.ConsumersOf("mlx5_1")[0].container, "main");
  EXPECT_EQ(seen.DescribeConsumers("mlx5_1"), "pod ml/trainer-0");
  EXPECT_EQ(seen.KnowledgeOf("mlx5_0"), ConsumerKnowledge::kNone);
}

TEST(ConsumerMergeTest, NoSourceAtAllKnowsNothing) {
  ConsumerObservation seen = MergeConsumers(kDevices, nullptr, nullptr, {"kubelet: not used"});
  EXPECT_EQ(seen.KnowledgeOf("mlx5_0"), ConsumerKnowledge::kUnknown);
  EXPECT_EQ(seen.DescribeConsumers("mlx5_0"), "unknown");
  EXPECT_EQ(seen.blind_spots, std::vector<std::string>{"kubelet: not used"});
}

TEST(RailConsumerTest, DescribesWhatIsKnown) {
  RailConsumer c = Process(4100, "trainer-0");
  c.pod_namespace = "ml";
  c.job = "1234";
  c.nccl_version = "2.21.5";
  EXPECT_EQ(c.Describe(), "pod ml/trainer-0, job 1234, pid 4100 (python3), NCCL 2.21.5");
  EXPECT_EQ(RailConsumer{}.Describe(), "an unnamed consumer");
}

}  // namespace
}  // namespace rocewatch
