// `rocewatch diagnose --host-root BUNDLE` on a bundle someone else wrote: links that lead out of
// the bundle are refused, never read (the report says which were), and host strings holding
// terminal escapes reach the text report and the --npd line escaped. `rocewatch run --host-root`
// on the same bundle never reads through such a link either. The real binary, on the bundled
// example node with the hostile parts planted in it.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/daemon_process.h"
#include "support/example_node.h"
#include "support/golden.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

namespace fs = std::filesystem;

constexpr char kSecret[] = "root:$6$SECRET-HASH-NEVER-PRINTED:19000:0:99999:7:::";

class UntrustedBundleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteExampleNode(bundle_.path()).ok());
    secret_ = outside_.WriteFile("shadow", std::string(kSecret) + "\n");
  }
  // Replaces the bundle's file at `relative` with a link to `target`.
  void Plant(const std::string& relative, const std::string& target) {
    const fs::path path = bundle_.path() + "/" + relative;
    fs::create_directories(path.parent_path());
    fs::remove(path);
    fs::create_symlink(target, path);
  }
  std::string Diagnose(const std::string& flags, int* status) {
    return RunCommand(std::string(ROCEWATCH_BINARY) + " diagnose --daemon none --host-root " +
                          bundle_.path() + " " + flags + " 2>/dev/null",
                      status);
  }

  TempDir bundle_, outside_;
  std::string secret_;
};

TEST_F(UntrustedBundleTest, LinksOutOfTheBundleAreRefusedAndTheReportSaysSo) {
  Plant("sys/class/infiniband/mlx5_0/fw_ver", secret_);  // absolute
  Plant("etc/network/interfaces",
        "../../../" + fs::path(outside_.path()).filename().string() + "/shadow");  // climbs out
  Plant("proc/4242/environ", secret_);
  int status = -1;
  const std::string json = Diagnose("--json", &status);
  EXPECT_EQ(json.find("SECRET-HASH"), std::string::npos) << json;
  ASSERT_NE(status, 3) << json;
  const nlohmann::json report = nlohmann::json::parse(json);
  const nlohmann::json* refused = nullptr;
  for (const auto& finding : report["findings"])
    if (finding["check"] == "host_root_link_refused") refused = &finding;
  ASSERT_NE(refused, nullptr) << json;
  const std::string message = (*refused)["message"];
  EXPECT_NE(message.find("mlx5_0/fw_ver"), std::string::npos) << message;
  EXPECT_NE(message.find("etc/network/interfaces"), std::string::npos) << message;
  EXPECT_NE(message.find("proc/4242/environ"), std::string::npos) << message;
  EXPECT_TRUE(report["devices"][0]["fw_ver"].is_null()) << "refused: unknown, not read";

  const std::string text = Diagnose("", &status);
  EXPECT_EQ(text.find("SECRET-HASH"), std::string::npos) << text;
  EXPECT_NE(text.find("refused"), std::string::npos) << text;
}

// The kernel's own links, relative and inside the root, still resolve: a device directory moved
// under devices/ and linked from class/ as sysfs does reads as before, with no refusal.
TEST_F(UntrustedBundleTest, RelativeLinksInsideTheBundleStillResolve) {
  int status = -1;
  const std::string before = Diagnose("--json", &status);
  const std::string sys = bundle_.path() + "/sys";
  fs::create_directories(sys + "/devices/pci0000:00/0000:3b:00.0/infiniband");
  fs::rename(sys + "/class/infiniband/mlx5_1",
             sys + "/devices/pci0000:00/0000:3b:00.0/infiniband/mlx5_1");
  fs::create_directory_symlink("../../devices/pci0000:00/0000:3b:00.0/infiniband/mlx5_1",
                               sys + "/class/infiniband/mlx5_1");
  const std::string after = Diagnose("--json", &status);
  EXPECT_EQ(after.find("host_root_link_refused"), std::string::npos) << after;
  EXPECT_EQ(after, before);
}

// What `rocewatch run --host-root BUNDLE` exports once its consumer scan has listed the training
// process (pid 4242, whose comm is a label of rocewatch_rdma_consumer_info), with the log and the
// findings document; "" if it did not within 20 s.
std::string RunUntilTheConsumerIsExported(const std::string& bundle) {
  auto daemon = DaemonProcess::Start({"--host-root", bundle, "--state-file", ""});
  if (!daemon.ok()) return "";
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < end) {
    StatusOr<std::string> metrics = (*daemon)->Scrape();
    if (metrics.ok() && metrics->find("rocewatch_rdma_consumer_info{") != std::string::npos &&
        metrics->find("pid=\"4242\"") != std::string::npos) {
      StatusOr<HttpResponse> findings = (*daemon)->Get("/api/v1/findings");
      const std::string document = findings.ok() ? findings->body : "";
      (*daemon)->Stop();
      return *metrics + document + (*daemon)->ReadLog();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "";
}

TEST_F(UntrustedBundleTest, RunNeverReadsThroughALinkOutOfTheRoot) {
  // The control: the secret as a regular file inside the root, where the comm is read, reaches
  // /metrics. So its absence below means the link was not followed.
  bundle_.WriteFile("proc/4242/comm", std::string(kSecret) + "\n");
  const std::string inside = RunUntilTheConsumerIsExported(bundle_.path());
  ASSERT_FALSE(inside.empty()) << "the daemon did not export the consumer";
  ASSERT_NE(inside.find("SECRET-HASH"), std::string::npos) << inside;

  Plant("proc/4242/comm", secret_);                        // absolute
  Plant("sys/class/infiniband/mlx5_0/fw_ver", secret_);    // read by the poller
  Plant("sys/class/infiniband/mlx5_0/ports/1/link_layer",  // a label of port_info
        "../../../../../../../" + fs::path(outside_.path()).filename().string() + "/shadow");
  const std::string linked = RunUntilTheConsumerIsExported(bundle_.path());
  ASSERT_FALSE(linked.empty()) << "the daemon did not export the consumer";
  EXPECT_EQ(linked.find("SECRET-HASH"), std::string::npos) << linked;
  EXPECT_EQ(linked.find("NEVER-PRINTED"), std::string::npos) << linked;
}

TEST_F(UntrustedBundleTest, TerminalEscapesInHostStringsAreEscapedInTextAndNpd) {
  // A process name that would retitle the terminal and clear it; a GID's netdev with a colour.
  bundle_.WriteFile("proc/4242/comm", "py\x1b]0;owned\x07\x1b[2Jthon\n");
  bundle_.WriteFile("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/3", "ens1f0np0\x1b[31m\n");
  int status = -1;
  const std::string text = Diagnose("", &status);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\x07'), std::string::npos);
  EXPECT_NE(text.find("py\\x1b]0;owned\\x07\\x1b[2Jthon"), std::string::npos) << text;
  // A netdev name with control characters is no netdev name: that GID slot is unknown, and the
  // bytes reach the terminal nowhere.
  EXPECT_NE(text.find("1 unknown (unreadable: index 3)"), std::string::npos) << text;

  const std::string npd = Diagnose("--npd", &status);
  EXPECT_EQ(npd.find('\x1b'), std::string::npos) << npd;
  EXPECT_NE(npd.find("py\\x1b]0;owned"), std::string::npos) << npd;

  // JSON carries the bytes as JSON escapes: valid JSON, the value intact.
  const nlohmann::json report = nlohmann::json::parse(Diagnose("--json", &status));
  EXPECT_EQ(report["devices"][0]["consumers"][0]["comm"], "py\x1b]0;owned\x07\x1b[2Jthon");
}

}  // namespace
}  // namespace rocewatch
