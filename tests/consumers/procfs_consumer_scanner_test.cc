#include "consumers/procfs_consumer_scanner.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "support/fake_clock.h"
#include "support/procfs_fixture.h"

namespace rocewatch {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

constexpr char kUid[] = "1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e";
constexpr char kId[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

class ProcfsConsumerScannerTest : public ::testing::Test {
 protected:
  ProcfsConsumerScannerTest() {
    node.Uverbs(0, "mlx5_0").Uverbs(1, "mlx5_1");
    node.Add(ProcfsFixture::Plain(700, "sshd"));
  }
  ProcfsConsumerScan Scan(bool full = false) { return scanner.Scan(clock.Now(), full); }

  ProcfsFixture node;
  FakeClock clock;
  ProcfsConsumerScanner scanner{node.fs(), node.paths()};
};

TEST_F(ProcfsConsumerScannerTest, NamesProcessPodJobAndNcclOfEachDevice) {
  node.Consumer(4100, 0, "python3", {"HOSTNAME=trainer-0", "NCCL_IB_GID_INDEX=3"},
                ProcfsFixture::KubepodsCgroup(kUid, kId),
                "7f00-7f10 r-xp 00000000 fd:01 1 /usr/lib/libnccl.so.2.18.3\n");
  node.Consumer(5200, 1, "ib_write_bw", {"SLURM_JOB_ID=8812"});
  ProcfsConsumerScan scan = Scan();
  ASSERT_TRUE(scan.Complete());
  ASSERT_EQ(scan.consumers["mlx5_0"].size(), 1u);
  const RailConsumer& trainer = scan.consumers["mlx5_0"][0];
  EXPECT_EQ(trainer.pid, 4100);
  EXPECT_EQ(trainer.comm, "python3");
  EXPECT_EQ(trainer.pod, "trainer-0");
  EXPECT_EQ(trainer.pod_uid, kUid);
  EXPECT_EQ(trainer.container, "0123456789ab");
  EXPECT_EQ(trainer.nccl_version, "2.18.3");
  EXPECT_EQ(trainer.nccl_gid_index, 3);
  ASSERT_EQ(scan.consumers["mlx5_1"].size(), 1u);
  EXPECT_EQ(scan.consumers["mlx5_1"][0].job, "8812");
  EXPECT_TRUE(scan.consumers["mlx5_1"][0].pod.empty());  // HOSTNAME of a host process is no pod
  EXPECT_TRUE(scan.consumers["mlx5_1"][0].nccl_version.empty());
}

TEST_F(ProcfsConsumerScannerTest, SlurmJobComesFromTheEnvironmentElseTheCgroupPath) {
  node.Consumer(5200, 0, "python3", {"SLURM_JOB_ID=8812"});
  node.Consumer(5300, 1, "python3", {}, "0::/system.slice/slurmstepd.scope/job_9001/step_0\n");
  node.Consumer(5400, 1, "python3", {"SLURM_JOB_ID=$(reboot)"},
                "0::/system.slice/slurmstepd.scope/job_9002/step_0\n");
  ProcfsConsumerScan scan = Scan();
  ASSERT_EQ(scan.consumers["mlx5_0"].size(), 1u);
  EXPECT_EQ(scan.consumers["mlx5_0"][0].job, "8812");
  EXPECT_EQ(scan.consumers["mlx5_0"][0].Describe(), "job 8812, pid 5200 (python3)");
  ASSERT_EQ(scan.consumers["mlx5_1"].size(), 2u);
  EXPECT_EQ(scan.consumers["mlx5_1"][0].job, "9001");
  EXPECT_EQ(scan.consumers["mlx5_1"][1].job, "9002");  // a variable that is no number is not taken
}

TEST_F(ProcfsConsumerScannerTest, PipWheelVersionIsReadInTheProcessRoot) {
  node.Consumer(4100, 0, "python3", {}, "0::/\n",
                "7f00-7f10 r-xp 0 fd:01 1 /venv/site-packages/nvidia/nccl/lib/libnccl.so.2\n");
  node.fs().AddDir(node.ProcessDir(4100) +
                   "/root/venv/site-packages/nvidia_nccl_cu12-2.21.5.dist-info");
  EXPECT_EQ(Scan().consumers["mlx5_0"][0].nccl_version, "2.21.5");
}

TEST_F(ProcfsConsumerScannerTest, UnreadableDescriptorsMakeTheScanIncompleteNotEmpty) {
  node.Consumer(4100, 0);
  node.Add(ProcfsFixture::Plain(4200));
  node.fs().FailReads(node.ProcessDir(4200) + "/fd", EACCES);
  ProcfsConsumerScan scan = Scan();
  EXPECT_FALSE(scan.Complete());
  EXPECT_EQ(scan.unreadable_pids, std::vector<int>{4200});
  EXPECT_EQ(scan.consumers["mlx5_0"].size(), 1u);
  EXPECT_GE(scan.read_errors, 1u);
}

TEST_F(ProcfsConsumerScannerTest, EachDatumDegradesOnItsOwn) {
  node.Consumer(4100, 0, "python3", {"SLURM_JOB_ID=1"}, "0::/\n",
                "7f00-7f10 r-xp 0 fd:01 1 /usr/lib/libnccl.so.2.18.3\n");
  node.fs().FailReads(node.ProcessDir(4100) + "/environ", EACCES);
  node.fs().FailReads(node.ProcessDir(4100) + "/maps", EACCES);
  ProcfsConsumerScan scan = Scan();
  EXPECT_TRUE(scan.Complete());  // the descriptors were read: who holds what is known
  ASSERT_EQ(scan.consumers["mlx5_0"].size(), 1u);
  EXPECT_TRUE(scan.consumers["mlx5_0"][0].job.empty());
  EXPECT_TRUE(scan.consumers["mlx5_0"][0].nccl_version.empty());
  EXPECT_EQ(scan.environ_unreadable, 1u);
  EXPECT_EQ(scan.maps_unreadable, 1u);
}

TEST_F(ProcfsConsumerScannerTest, ProcessesThatExitMidScanAreNeitherConsumersNorErrors) {
  node.Consumer(4100, 0);
  // Listed, then gone before its descriptors were read: the listing names it, its directory is
  // no more.
  node.fs().AddFile("/host/proc/4300", "");
  ProcfsConsumerScan scan = Scan();
  EXPECT_TRUE(scan.Complete());
  EXPECT_EQ(scan.read_errors, 0u);
}

// Exiting, not yet reaped: its directory is still listed, but its files answer ESRCH ("No such
// process"). Not a consumer, and not a failure of procfs.
TEST_F(ProcfsConsumerScannerTest, AProcessExitingDuringTheScanIsNoSourceError) {
  node.Consumer(4100, 0);
  node.Add(ProcfsFixture::Plain(4300, "worker"));
  node.fs().FailReads(node.ProcessDir(4300) + "/fd", ESRCH);
  ProcfsConsumerScan scan = Scan();
  EXPECT_TRUE(scan.Complete());
  EXPECT_EQ(scan.read_errors, 0u);
  EXPECT_TRUE(scan.unreadable_pids.empty());
  EXPECT_EQ(scan.consumers["mlx5_0"].size(), 1u);
}

// A consumer that exits between the read of its descriptors and the read of its environment.
TEST_F(ProcfsConsumerScannerTest, AConsumerExitingBeforeItsEnvironmentIsReadIsNoSourceError) {
  node.Consumer(4100, 0, "python3", {"SLURM_JOB_ID=7"});
  node.fs().FailReads(node.ProcessDir(4100) + "/environ", ESRCH);
  node.fs().FailReads(node.ProcessDir(4100) + "/cgroup", ENOENT);
  ProcfsConsumerScan scan = Scan();
  EXPECT_EQ(scan.read_errors, 0u);
  EXPECT_EQ(scan.environ_unreadable, 0u);
}

TEST_F(ProcfsConsumerScannerTest, OutsideTheHostNamespaceAbsenceIsNotProven) {
  ProcfsFixture pod_view(/*host_namespace=*/false);
  pod_view.Uverbs(0, "mlx5_0");
  ProcfsConsumerScanner scanner_in_pod(pod_view.fs(), pod_view.paths());
  ProcfsConsumerScan scan = scanner_in_pod.Scan(clock.Now(), true);
  EXPECT_TRUE(scan.procfs_readable);
  EXPECT_FALSE(scan.host_namespace);
  EXPECT_FALSE(scan.Complete());
}

TEST_F(ProcfsConsumerScannerTest, ItselfAndOtherRocewatchProcessesAreNotConsumers) {
  node.fs().AddLink("/host/proc/self", "4100");
  node.Consumer(4100, 0, "rocewatch");  // the daemon reading GIDs through verbs
  node.Consumer(4200, 1, "rocewatch");  // a diagnose run by hand
  ProcfsConsumerScan scan = Scan();
  EXPECT_TRUE(scan.consumers.empty());
}

TEST_F(ProcfsConsumerScannerTest, IncrementalScansReadOnlyNewProcessesAndSeeExits) {
  node.Consumer(4100, 0);
  Scan();
  node.fs().ClearFilesRead();
  node.Consumer(4200, 1);
  clock.Advance(seconds(10));
  ProcfsConsumerScan scan = Scan();
  EXPECT_EQ(scan.descriptors_read, 1u);  // only 4200's
  EXPECT_EQ(scan.consumers.size(), 2u);
  EXPECT_EQ(node.fs().ReadCount(node.ProcessDir(700) + "/comm"), 0u);

  node.Exit(4100);
  clock.Advance(seconds(10));
  scan = Scan();
  EXPECT_EQ(scan.consumers.count("mlx5_0"), 0u);
  EXPECT_EQ(scan.consumers["mlx5_1"].size(), 1u);
}

TEST_F(ProcfsConsumerScannerTest, AReusedPidIsNotTakenForTheConsumerItWas) {
  node.Consumer(4100, 0);
  Scan();
  node.Exit(4100);
  ProcfsFixture::Process reused = ProcfsFixture::Plain(4100, "bash");  // a new process, same pid
  reused.start_time = "9999";
  node.Add(reused);
  clock.Advance(seconds(10));
  EXPECT_TRUE(Scan().consumers.empty());
}

TEST_F(ProcfsConsumerScannerTest, AProcessThatOpensADeviceLaterIsSeenAtItsRecheck) {
  node.Add(ProcfsFixture::Plain(4100));
  Scan();
  node.fs().AddLink(node.ProcessDir(4100) + "/fd/9", "/dev/infiniband/uverbs0");
  clock.Advance(minutes(1));
  EXPECT_TRUE(Scan().consumers.empty());  // not due yet
  clock.Advance(minutes(60));             // due within an hour (--consumer-recheck), by pid
  EXPECT_EQ(Scan().consumers["mlx5_0"].size(), 1u);
  node.fs().Remove(node.ProcessDir(4100) + "/fd/9");
  EXPECT_EQ(Scan().consumers["mlx5_0"].size(), 1u);  // a consumer is re-checked every 5 min
  clock.Advance(minutes(5));
  EXPECT_TRUE(Scan().consumers.empty());
  node.fs().AddLink(node.ProcessDir(4100) + "/fd/9", "/dev/infiniband/uverbs0");
  EXPECT_EQ(Scan(/*full=*/true).consumers["mlx5_0"].size(), 1u);  // a full scan at once
}

TEST_F(ProcfsConsumerScannerTest, AnUnknownUverbsNodeIsABlindSpot) {
  ProcfsFixture::Process orphan = ProcfsFixture::Plain(4100);
  orphan.fd_targets = {"/dev/infiniband/uverbs7"};
  node.Add(orphan);
  ProcfsConsumerScan scan = Scan();
  EXPECT_EQ(scan.unreadable_pids, std::vector<int>{4100});
  EXPECT_FALSE(scan.Complete());
}

TEST_F(ProcfsConsumerScannerTest, AnUnreadableProcfsIsNotAnEmptyNode) {
  node.fs().FailReads("/host/proc", EACCES);
  ProcfsConsumerScan scan = Scan();
  EXPECT_FALSE(scan.procfs_readable);
  EXPECT_FALSE(scan.Complete());
}

TEST(StatStartTimeTest, CountsFieldsAfterTheLastParenthesis) {
  EXPECT_EQ(ParseStatStartTime("42 (a) b) c) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 777 0 0\n"),
            "777");
  EXPECT_EQ(ParseStatStartTime("42 (short) S 1"), "");
  EXPECT_EQ(ParseStatStartTime("garbage"), "");
}

}  // namespace
}  // namespace rocewatch
