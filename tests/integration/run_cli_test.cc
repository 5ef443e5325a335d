// The real daemon on a fixture tree: what a Prometheus scrape sees.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <regex>
#include <sstream>

#include "support/daemon_process.h"
#include "support/golden.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

// The exposition without values that change from run to run (times, durations,
// the build revision, traffic rates: present from the second poll on), for a stable
// golden comparison.
std::string StableExposition(const std::string& exposition) {
  std::istringstream lines(exposition);
  std::ostringstream out;
  std::string line;
  static const std::regex volatile_series(
      "^(rocewatch_poll_duration_seconds|rocewatch_last_poll_timestamp_seconds|"
      "rocewatch_traffic_rate_bytes_per_second\\{|rocewatch_component_duration_seconds\\{)");
  while (std::getline(lines, line)) {
    if (std::regex_search(line, volatile_series)) continue;
    line = std::regex_replace(line, std::regex("revision=\"[^\"]*\""), "revision=\"X\"");
    out << line << "\n";
  }
  return out.str();
}

class RunCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", ExampleEightRailNode()).ok());
  }
  TempDir dir_;
};

TEST_F(RunCliTest, ServesTheNodeAsMetrics) {
  auto daemon = DaemonProcess::Start({"--host-root", dir_.path(), "--state-file", ""});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  auto metrics = (*daemon)->Scrape();
  ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
  EXPECT_EQ(FindSample(*metrics, "rocewatch_rdma_devices"), 8);
  EXPECT_EQ(FindSample(*metrics, R"(rocewatch_port_active{device="mlx5_0",port="1"})"), 1);
  EXPECT_EQ(FindSample(*metrics, R"(rocewatch_gid_info{device="mlx5_3",port="1",index="5",)"
                                 R"(gid="0000:0000:0000:0000:0000:ffff:0a00:0302",type="roce_v2",)"
                                 R"(netdev="ens4f0np0"})"),
            1);
  EXPECT_TRUE(FindSample(*metrics, "rocewatch_last_poll_timestamp_seconds").has_value());
  EXPECT_EQ((*daemon)->Stop(), 0);
}

TEST_F(RunCliTest, ExpositionMatchesTheGoldenFile) {
  auto daemon = DaemonProcess::Start({"--host-root", dir_.path(), "--state-file", ""});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  auto metrics = (*daemon)->Scrape();
  ASSERT_TRUE(metrics.ok());
  ExpectMatchesGolden(StableExposition(*metrics), "example_8_rail_metrics.prom");
}

TEST_F(RunCliTest, BadFlagsExitTwoWithAClearMessage) {
  int status = 0;
  std::string err = RunCommand(
      std::string(ROCEWATCH_BINARY) + " run --listen '[::1]:9879' 2>&1 >/dev/null", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("IPv6 is not supported"), std::string::npos) << err;
  RunCommand(std::string(ROCEWATCH_BINARY) + " run --interval 0s 2>/dev/null", &status);
  EXPECT_EQ(status, 2);
}

TEST_F(RunCliTest, ABadRailPlanExitsTwoWithOneLineNamingTheFileAndTheLine) {
  const std::string run = std::string(ROCEWATCH_BINARY) + " run --state-file '' --rail-plan ";
  const std::string plan = dir_.path() + "/rail-plan";
  auto write = [&](const std::string& text) {
    FILE* f = std::fopen(plan.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(text.c_str(), f);
    std::fclose(f);
  };
  int status = 0;
  write("# rail switch port\n* leaf-{pod} swp1\n");
  std::string err = RunCommand(run + plan + " 2>&1 >/dev/null", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("--rail-plan " + plan +
                     ": line 2: unknown substitution {pod} (known: {rail} {rail1} {node} {n})"),
            std::string::npos)
      << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  write("* leaf-r{rail1} swp{n}\n");
  err = RunCommand(run + plan + " --node-name login 2>&1 >/dev/null", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("uses {n}, but the node name 'login' has no number (set --node-name)"),
            std::string::npos)
      << err;
  err = RunCommand(run + dir_.path() + "/absent 2>&1 >/dev/null", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("--rail-plan " + dir_.path() + "/absent: "), std::string::npos) << err;
  err = RunCommand(run + dir_.path() + " 2>&1 >/dev/null", &status);
  EXPECT_EQ(status, 2) << "a directory is no plan: " << err;
}

TEST_F(RunCliTest, AnErrorFromAnEnvironmentVariableNamesTheVariable) {
  const std::string run = std::string(ROCEWATCH_BINARY) + " run";
  int status = 0;
  std::string err = RunCommand("ROCEWATCH_INTERVAL=abc " + run + " 2>&1 >/dev/null", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("ROCEWATCH_INTERVAL (environment): invalid duration 'abc'"), std::string::npos)
      << err;
  EXPECT_EQ(err.find("--interval"), std::string::npos) << "the user never typed --interval";
  // Range checks done by the parser itself, too.
  err = RunCommand("ROCEWATCH_EXPECTED_GID_INDEX=70000 " + run + " 2>&1 >/dev/null", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("ROCEWATCH_EXPECTED_GID_INDEX (environment)"), std::string::npos) << err;
  // A flag typed on the command line is named as typed, even with the variable also set.
  err = RunCommand("ROCEWATCH_SETTLE=zz " + run + " --settle yy 2>&1 >/dev/null", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("--settle: invalid duration 'yy'"), std::string::npos) << err;
}

TEST_F(RunCliTest, AFlagWithAnEmptyValueDoesNotSwallowTheNextArgument) {
  int status = 0;
  // --listen= is empty (invalid), not "--interval=1s".
  std::string err = RunCommand(
      std::string(ROCEWATCH_BINARY) + " run --listen= --interval=1s 2>&1 >/dev/null", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("invalid --listen ''"), std::string::npos) << err;
  EXPECT_EQ(err.find("--interval=1s'"), std::string::npos) << err;
}

}  // namespace
}  // namespace rocewatch
