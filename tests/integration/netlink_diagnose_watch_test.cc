// `rocewatch diagnose --watch` in a test-owned network namespace: a NetworkManager-style flap of
// the RNIC during the watch is printed live and ends up in the report's findings.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "support/net_namespace.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;

std::string ReadWatchLog(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(NetlinkDiagnoseWatch, FlapDuringTheWatchIsPrintedLiveAndReported) {
  auto ns = NetNamespace::Create("nlw");
  if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
  // RailNode(1): mlx5_0 on ens1f0np0 with 10.0.0.2/24; the veth takes that name.
  ASSERT_TRUE((*ns)->AddVethPair("ens1f0np0", "peer0").ok());
  ASSERT_TRUE((*ns)->Ip("addr add 10.0.0.2/24 dev ens1f0np0").ok());
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(1, 16)).ok());
  const std::string err_path = dir.path() + "/stderr";

  // The fixture directory is the host root: diagnose reads no process of this machine (an
  // unrelated NCCL job on it would add its own findings), only the namespace's netlink.
  std::string json_text;
  int status = -1;
  std::thread diagnose([&] {
    status =
        RunShell("(" + (*ns)->ExecPrefix() + ROCEWATCH_BINARY +
                     " diagnose --daemon none --watch 6s --json --gid-source sysfs --host-root " +
                     dir.path() + " 2>" + err_path + ")",
                 &json_text);
  });
  // Waits until diagnose has printed `line` (what it saw), instead of sleeping a fixed time.
  auto printed = [&err_path](const std::string& line) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (ReadWatchLog(err_path).find(line) == std::string::npos &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(milliseconds(50));
    return ReadWatchLog(err_path).find(line) != std::string::npos;
  };
  EXPECT_TRUE(printed("ens1f0np0: watching"));
  EXPECT_TRUE((*ns)->Ip("link set peer0 down").ok());
  // NetworkManager removes the address once it has seen the carrier loss.
  EXPECT_TRUE(printed("ens1f0np0: carrier down"));
  EXPECT_TRUE((*ns)->Ip("addr del 10.0.0.2/24 dev ens1f0np0").ok());
  EXPECT_TRUE(printed("ens1f0np0: address 10.0.0.2/24 removed"));
  EXPECT_TRUE((*ns)->Ip("link set peer0 up").ok());
  EXPECT_TRUE((*ns)->Ip("addr add 10.0.0.2/24 dev ens1f0np0").ok());
  diagnose.join();

  const std::string live = ReadWatchLog(err_path);
  EXPECT_NE(live.find("ens1f0np0: carrier down"), std::string::npos) << live;
  EXPECT_NE(live.find("ens1f0np0: address 10.0.0.2/24 removed (lost during a flap)"),
            std::string::npos)
      << live;
  EXPECT_NE(live.find("ens1f0np0: carrier up after"), std::string::npos) << live;

  nlohmann::json report = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(report.is_discarded()) << json_text;
  std::set<std::string> checks;
  for (const auto& f : report["findings"]) checks.insert(f.value("check", ""));
  EXPECT_TRUE(checks.count("ip_lost_during_flap")) << json_text;
  EXPECT_TRUE(checks.count("link_flap")) << json_text;
  EXPECT_EQ(report.value("status", ""), "warning");
  EXPECT_EQ(status, 1);
  ASSERT_TRUE(report.contains("watch"));
  EXPECT_GE(report["watch"].size(), 4u);
}

}  // namespace
}  // namespace rocewatch
