#include "nccl/nccl_process_scan.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>

#include "support/fault_injecting_file_system.h"
#include "support/host_root_builder.h"

namespace rocewatch {
namespace {

class NcclProcessScanTest : public ::testing::Test {
 protected:
  NcclProcessScan Scan(const FileSystem& fs) {
    return ScanNcclProcesses(fs, host_.paths().procfs_root,
                             ListProcesses(fs, host_.paths().procfs_root));
  }
  HostRootBuilder host_;
  PosixFileSystem fs_;
};

TEST_F(NcclProcessScanTest, FindsJobsByUverbsDescriptorOrNcclVariables) {
  host_.Process(1, "systemd", {"PATH=/usr/bin"})
      .Process(4100, "python3", {"NCCL_IB_GID_INDEX=3", "NCCL_IB_HCA=mlx5"}, /*uverbs=*/true)
      .Process(4200, "ib_write_bw", {"HOME=/root"}, /*uverbs=*/true)
      .Process(4300, "launcher", {"NCCL_DEBUG=INFO"});
  NcclProcessScan scan = Scan(fs_);
  ASSERT_EQ(scan.processes.size(), 3u);
  EXPECT_EQ(scan.processes[0].pid, 4100);
  EXPECT_TRUE(scan.processes[0].uses_uverbs);
  EXPECT_EQ(scan.processes[0].settings.gid_index, 3);
  EXPECT_EQ(scan.processes[1].comm, "ib_write_bw");
  EXPECT_TRUE(scan.processes[1].settings.raw.empty());
  EXPECT_FALSE(scan.processes[2].uses_uverbs);
  EXPECT_TRUE(scan.unreadable_pids.empty());
}

// rocewatch holds every RDMA device open (GID queries, async events): the daemon and diagnose
// are not jobs, and a healthy node warned about their "NCCL timeouts" (seen on soft-RoCE).
TEST_F(NcclProcessScanTest, RocewatchItselfIsNotAJob) {
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=3"}, /*uverbs=*/true)
      .Process(4200, "rocewatch", {"HOME=/root"}, /*uverbs=*/true)
      .Process(4300, "rocewatch", {"NCCL_DEBUG=INFO"}, /*uverbs=*/true);
  NcclProcessScan scan = Scan(fs_);
  ASSERT_EQ(scan.processes.size(), 1u);
  EXPECT_EQ(scan.processes[0].pid, 4100);
}

TEST_F(NcclProcessScanTest, NamesTheSlurmJobOfEachProcess) {
  host_.Process(4100, "python3", {"SLURM_JOB_ID=8812", "NCCL_IB_GID_INDEX=3"}, true)
      .Process(4200, "python3", {"SLURM_JOB_ID=not-a-number", "NCCL_IB_GID_INDEX=3"}, true)
      .Process(4300, "python3", {"SLURM_JOB_IDX=7", "NCCL_IB_GID_INDEX=3"}, true);
  NcclProcessScan scan = Scan(fs_);
  ASSERT_EQ(scan.processes.size(), 3u);
  EXPECT_EQ(scan.processes[0].job, "8812");
  EXPECT_EQ(scan.processes[1].job, "");
  EXPECT_EQ(scan.processes[2].job, "");
}

TEST_F(NcclProcessScanTest, CountsProcessesItMayNotRead) {
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=3"}, true).Process(4200, "python3", {}, true);
  // Another user's process, seen by a non-root diagnose: comm is world-readable, the rest is not.
  PosixFileSystem posix;
  FaultInjectingFileSystem denying(&posix);
  denying.FailPath(host_.paths().procfs_root + "/4200/environ", EACCES);
  denying.FailPrefix(host_.paths().procfs_root + "/4200/fd", EACCES);
  NcclProcessScan scan = Scan(denying);
  ASSERT_EQ(scan.processes.size(), 1u);
  EXPECT_EQ(scan.processes[0].pid, 4100);
  EXPECT_EQ(scan.unreadable_pids, std::vector<int>{4200});
}

TEST_F(NcclProcessScanTest, KernelThreadsAreSkippedNotCountedUnreadable) {
  const std::string proc = host_.paths().procfs_root;
  host_
      .Process(4100, "python3", {"NCCL_IB_GID_INDEX=3"}, true)
      // Linux 6.18 as root: environ fails with ESRCH (no stat needed).
      .File("/proc/3/comm", "pool_workqueue_\n")
      // Root on an older kernel or a protected environ: fd/ is there and empty.
      .File("/proc/4/comm", "kworker/R-rcu_g\n")
      // Not root: fd/ and environ are both denied; stat (world-readable) names kthreadd as parent.
      .File("/proc/5/comm", "kworker/0:0H\n")
      .File("/proc/5/stat", "5 (kworker/0:0H) I 2 0 0 0 -1 4194368 0 0 0 0")
      // ... or carries PF_KTHREAD (0x00200000) whatever its parent.
      .File("/proc/6/comm", "weird) (name\n")
      .File("/proc/6/stat", "6 (weird) (name) S 1 0 0 0 -1 2097216 0 0")
      // A user process that reads the same as 5 without the kernel-thread signs.
      .File("/proc/7/comm", "sshd\n")
      .File("/proc/7/stat", "7 (sshd) S 1 7 7 0 -1 4194560 0 0");
  std::filesystem::create_directories(host_.root() + "/proc/4/fd");
  PosixFileSystem posix;
  FaultInjectingFileSystem kernel(&posix);
  kernel.FailPath(proc + "/3/environ", ESRCH);
  kernel.FailPath(proc + "/4/environ", EACCES);
  for (int pid : {5, 6, 7}) {
    kernel.FailPath(proc + "/" + std::to_string(pid) + "/environ", EACCES);
    kernel.FailPrefix(proc + "/" + std::to_string(pid) + "/fd", EACCES);
  }
  NcclProcessScan scan = Scan(kernel);
  ASSERT_EQ(scan.processes.size(), 1u);
  EXPECT_EQ(scan.kernel_threads, 4u);
  EXPECT_EQ(scan.unreadable_pids, std::vector<int>{7});
}

TEST_F(NcclProcessScanTest, ProcessesThatExitDuringTheScanAreNotCounted) {
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=3"});
  std::vector<ProcessEntry> listed = ListProcesses(fs_, host_.paths().procfs_root);
  listed.push_back({4999, "gone"});  // listed, then exited: its files are absent
  NcclProcessScan scan = ScanNcclProcesses(fs_, host_.paths().procfs_root, listed);
  EXPECT_EQ(scan.processes.size(), 1u);
  EXPECT_TRUE(scan.unreadable_pids.empty());
}

// Still listed but exiting: its files answer ESRCH. So does a kernel thread's environ.
TEST_F(NcclProcessScanTest, ProcessesWhoseFilesAnswerNoSuchProcessAreNotCounted) {
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=3"}).Process(4200, "exiting", {}, true);
  host_.Process(2, "kthreadd", {});
  PosixFileSystem posix;
  FaultInjectingFileSystem exiting(&posix);
  exiting.FailPath(host_.paths().procfs_root + "/4200/environ", ESRCH);
  exiting.FailPrefix(host_.paths().procfs_root + "/4200/fd", ESRCH);
  exiting.FailPath(host_.paths().procfs_root + "/2/environ", ESRCH);
  NcclProcessScan scan = Scan(exiting);
  ASSERT_EQ(scan.processes.size(), 1u);
  EXPECT_EQ(scan.processes[0].pid, 4100);
  EXPECT_TRUE(scan.unreadable_pids.empty());
}

}  // namespace
}  // namespace rocewatch
