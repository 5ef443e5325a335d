// `rocewatch diagnose --watch` compares the counters at the start of the watch with the last
// snapshot: a symbol_error counter that rises while it watches is a finding. The real binary on a
// fixture tree; the test raises the counter once diagnose says it is watching.

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/golden.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

std::string ReadCountersLog(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(DiagnoseWatchCounters, SymbolErrorsRisingDuringTheWatchAreReported) {
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(2, 8)).ok());
  const std::string err_file = dir.path() + "/stderr";
  int status = -1;
  std::string report;
  std::thread diagnose([&] {
    report = RunCommand(std::string(ROCEWATCH_BINARY) +
                            " diagnose --daemon none --watch 3s --host-root " + dir.path() + " 2>" +
                            err_file,
                        &status);
  });
  // "watching for ..." is printed after the first snapshot was taken.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (ReadCountersLog(err_file).find("watching for") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  dir.WriteFile("sys/class/infiniband/mlx5_1/ports/1/counters/symbol_error", "12\n");
  diagnose.join();
  EXPECT_EQ(status, 1) << report;
  EXPECT_NE(report.find("[link_error_counters_rising]"), std::string::npos) << report;
  EXPECT_NE(report.find("symbol_error 0 -> 12"), std::string::npos) << report;
}

}  // namespace
}  // namespace rocewatch
