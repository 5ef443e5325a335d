// A sysfs file whose read never returns (a FIFO with no writer in place of one port's state and of
// one GID slot: open() blocks as a wedged driver's show() does) must not stop the daemon: the
// other ports are still exported, the source is reported stalled (metric, finding), /healthz
// answers and names it, SIGTERM exits within its bound, and a restart with the FIFOs still there
// starts and serves too.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "os/file_system.h"
#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/in_process_daemon.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr char kStuckState[] = "class/infiniband/mlx5_1/ports/1/state";
constexpr char kStuckGid[] = "class/infiniband/mlx5_2/ports/1/gids/1";

class StuckSysfsReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sysfs_ = dir_.path() + "/sys";
    ASSERT_TRUE(WriteSysfsFixture(sysfs_, RailNode(4, 16)).ok());
    for (const char* file : {kStuckState, kStuckGid}) {
      const std::string path = sysfs_ + "/" + file;
      auto content = PosixFileSystem().ReadFile(path, 4096);
      ASSERT_TRUE(content.ok()) << path;
      originals_.push_back(*content);
      ASSERT_TRUE(std::filesystem::remove(path));
      ASSERT_EQ(mkfifo(path.c_str(), 0644), 0) << path;
    }
  }
  // The driver recovers: the files are what they were, and every reader blocked in a FIFO's
  // open() goes (it opens, reads end-of-file once the writer closes, returns).
  void RestoreFiles() {
    std::vector<int> writers;
    const char* files[] = {kStuckState, kStuckGid};
    for (size_t i = 0; i < 2; ++i) {
      const std::string path = sysfs_ + "/" + files[i];
      int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK);  // ENXIO while no reader waits
      if (fd >= 0) writers.push_back(fd);
      std::filesystem::remove(path);
      FILE* file = std::fopen(path.c_str(), "w");
      ASSERT_NE(file, nullptr) << path;
      std::fputs(originals_[i].c_str(), file);
      std::fclose(file);
    }
    for (int fd : writers) close(fd);
  }

  TempDir dir_;
  std::string sysfs_;
  std::vector<std::string> originals_;
};

std::string Series(const std::string& name, const std::string& device) {
  return name + "{device=\"" + device + "\",port=\"1\"}";
}

TEST_F(StuckSysfsReadTest, TheRestOfTheNodeIsExportedAndTheSourceReportedStalled) {
  PosixFileSystem fs;
  auto daemon = std::make_unique<InProcessDaemon>(fs, sysfs_);
  daemon->set_read_deadline(milliseconds(100));
  ASSERT_TRUE(daemon->Start().ok());
  auto metrics = HttpGet("127.0.0.1", daemon->port(), "/metrics");
  ASSERT_TRUE(metrics.ok());
  const std::string& text = metrics->body;
  for (const char* device : {"mlx5_0", "mlx5_2", "mlx5_3"})
    EXPECT_EQ(FindSample(text, Series("rocewatch_port_active", device)), 1) << device;
  // Its state is unknown: no sample, not a 0 that would page RoceLinkDown.
  EXPECT_EQ(FindSample(text, Series("rocewatch_port_active", "mlx5_1")), std::nullopt);
  EXPECT_TRUE(FindSample(text, Series("rocewatch_port_transmit_bytes_total", "mlx5_1")));
  // The stuck GID slot is left out, the rest of its table is read.
  EXPECT_NE(text.find("rocewatch_gid_info{device=\"mlx5_2\",port=\"1\",index=\"0\""),
            std::string::npos);
  EXPECT_EQ(text.find("rocewatch_gid_info{device=\"mlx5_2\",port=\"1\",index=\"1\""),
            std::string::npos);
  EXPECT_EQ(FindSample(text, "rocewatch_source_stalled{source=\"sysfs\"}"), 1);
  EXPECT_EQ(FindSample(text, "rocewatch_reading_threads_abandoned"), 2);

  auto findings = HttpGet("127.0.0.1", daemon->port(), "/api/v1/findings");
  ASSERT_TRUE(findings.ok());
  EXPECT_NE(findings->body.find("source_stalled"), std::string::npos) << findings->body;
  EXPECT_NE(findings->body.find(kStuckState), std::string::npos) << findings->body;
  EXPECT_NE(findings->body.find(kStuckGid), std::string::npos) << findings->body;
  auto health = HttpGet("127.0.0.1", daemon->port(), "/healthz");
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->status, 200);  // the loop is live: a wedged driver must not restart the pod
  EXPECT_EQ(health->body, "ok\nstalled reads: sysfs (2); the source_stalled finding names them\n");

  // Polls go on past the stuck reads, without waiting for them again (no thread given up on).
  ASSERT_TRUE(daemon->Poll().ok());
  EXPECT_EQ(daemon->stuck_reads().abandoned_threads(), 2);
  EXPECT_EQ(daemon->stuck_reads().size(), 2u);

  // Once the reads return, they are read again and the stall is over.
  RestoreFiles();
  for (int i = 0; i < 3000 && daemon->stuck_reads().abandoned_threads() > 0; ++i)
    std::this_thread::sleep_for(milliseconds(10));
  ASSERT_EQ(daemon->stuck_reads().abandoned_threads(), 0);
  EXPECT_EQ(daemon->stuck_reads().size(), 0u);
  ASSERT_TRUE(daemon->Poll().ok());
  metrics = HttpGet("127.0.0.1", daemon->port(), "/metrics");
  ASSERT_TRUE(metrics.ok());
  EXPECT_EQ(FindSample(metrics->body, "rocewatch_source_stalled{source=\"sysfs\"}"), 0);
  EXPECT_EQ(FindSample(metrics->body, Series("rocewatch_port_active", "mlx5_1")), 1);
  health = HttpGet("127.0.0.1", daemon->port(), "/healthz");
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->body, "ok\n");
}

// The real binary, default deadline (2 s): starts, serves, exits on SIGTERM with the reads still
// stuck, and starts again on the same tree.
TEST_F(StuckSysfsReadTest, TheDaemonStartsServesStopsAndRestartsWithTheFifosInPlace) {
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE(run == 0 ? "first start" : "restart");
    // Two stuck reads at start: two to four deadlines before the first snapshot.
    auto daemon =
        DaemonProcess::Start({"--host-root", dir_.path(), "--state-file", ""}, "", seconds(30));
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    auto metrics = (*daemon)->Scrape();
    ASSERT_TRUE(metrics.ok());
    EXPECT_EQ(FindSample(*metrics, Series("rocewatch_port_active", "mlx5_0")), 1);
    EXPECT_EQ(FindSample(*metrics, Series("rocewatch_port_active", "mlx5_3")), 1);
    EXPECT_EQ(FindSample(*metrics, "rocewatch_source_stalled{source=\"sysfs\"}"), 1);
    auto health = (*daemon)->Get("/healthz");
    ASSERT_TRUE(health.ok());
    EXPECT_EQ(health->status, 200);
    EXPECT_NE(health->body.find("stalled reads: sysfs (2)"), std::string::npos) << health->body;
    ASSERT_TRUE((*daemon)->Signal(SIGTERM));
    std::optional<int> status = (*daemon)->WaitForExit(seconds(5));
    ASSERT_TRUE(status.has_value()) << "did not exit within 5 s of SIGTERM\n"
                                    << (*daemon)->ReadLog();
    const std::string log = (*daemon)->ReadLog();
    EXPECT_EQ(*status, 0) << log;
    EXPECT_NE(log.find("read stuck for over"), std::string::npos) << log;
    EXPECT_NE(log.find("stopped"), std::string::npos) << log;
  }
}

}  // namespace
}  // namespace rocewatch
