// A procfs read that never returns (a FIFO with no writer in place of a consumer's maps: open()
// blocks as a read of a process whose mm lock is held by a task stuck in the kernel does) must not
// stop the real daemon: it serves, reports source "procfs" stalled (metric, /healthz), names the
// stuck path in read_failed at the next scan while the process is still seen holding its device,
// and exits on SIGTERM within its bound.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

void WriteText(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr) << path;
  std::fputs(text.c_str(), file);
  std::fclose(file);
}

// Waits (bounded) until `/metrics` has `series` with `value`; the last body otherwise.
bool AwaitSample(const DaemonProcess& daemon, const std::string& series, double value,
                 std::string* body) {
  const auto until = std::chrono::steady_clock::now() + seconds(40);
  while (std::chrono::steady_clock::now() < until) {
    StatusOr<std::string> metrics = daemon.Scrape();
    if (metrics.ok()) {
      *body = *metrics;
      if (FindSample(*metrics, series) == value) return true;
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
  return false;
}

TEST(StuckProcfsReadTest, TheDaemonServesReportsTheStuckReadAndStops) {
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(2, 16)).ok());
  WriteText(dir.path() + "/sys/class/infiniband_verbs/uverbs0/ibdev", "mlx5_0\n");
  // A job holding mlx5_0's verbs node; its maps is the FIFO.
  const std::string process = dir.path() + "/proc/4200";
  WriteText(process + "/comm", "python3\n");
  WriteText(process + "/cgroup", "0::/\n");
  WriteText(process + "/environ", std::string("SLURM_JOB_ID=77\0", 16));
  WriteText(process + "/stat",
            "4200 (python3) S 1 4200 4200 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 4242\n");
  std::filesystem::create_directories(process + "/fd");
  std::filesystem::create_symlink("/dev/infiniband/uverbs0", process + "/fd/3");
  const std::string maps = process + "/maps";
  ASSERT_EQ(mkfifo(maps.c_str(), 0644), 0);
  WriteText(dir.path() + "/proc/2/comm", "kthreadd\n");

  auto daemon = DaemonProcess::Start({"--host-root", dir.path(), "--state-file", "",
                                      "--consumer-scan-interval", "2s", "--kubelet-socket", "none"},
                                     "", seconds(30));
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  std::string body;
  ASSERT_TRUE(AwaitSample(**daemon, "rocewatch_source_stalled{source=\"procfs\"}", 1, &body))
      << body << (*daemon)->ReadLog();
  EXPECT_EQ(FindSample(body, "rocewatch_port_active{device=\"mlx5_0\",port=\"1\"}"), 1);
  EXPECT_EQ(FindSample(body, "rocewatch_source_stalled{source=\"sysfs\"}"), 0);
  auto health = (*daemon)->Get("/healthz");
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->status, 200);
  EXPECT_NE(health->body.find("stalled reads: procfs (1)"), std::string::npos) << health->body;

  // The next scan, on a new reading thread: the process is seen holding mlx5_0, the stuck read
  // fails at once and read_failed names it.
  ASSERT_TRUE(AwaitSample(**daemon, "rocewatch_rdma_consumers{device=\"mlx5_0\"}", 1, &body))
      << body << (*daemon)->ReadLog();
  auto findings = (*daemon)->Get("/api/v1/findings");
  ASSERT_TRUE(findings.ok());
  EXPECT_NE(findings->body.find("read_failed"), std::string::npos) << findings->body;
  EXPECT_NE(findings->body.find("4200/maps"), std::string::npos) << findings->body;

  ASSERT_TRUE((*daemon)->Signal(SIGTERM));
  std::optional<int> status = (*daemon)->WaitForExit(seconds(5));
  ASSERT_TRUE(status.has_value()) << "did not exit within 5 s of SIGTERM\n" << (*daemon)->ReadLog();
  EXPECT_EQ(*status, 0) << (*daemon)->ReadLog();
  EXPECT_NE((*daemon)->ReadLog().find("procfs read stuck for over"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
