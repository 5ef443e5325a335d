// `rocewatch diagnose --daemon URL` against a real daemon: the daemon serves its live findings at
// GET /api/v1/findings (built on its loop when asked), and diagnose merges them, so a drift the
// daemon saw makes the one-shot report critical and --npd NonOK; an unreachable daemon is an info
// finding, never an error. A support bundle carries the daemon's answer (`collect --daemon URL`),
// which diagnose of the bundle merges in place of a live daemon's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "support/daemon_process.h"
#include "support/golden.h"
#include "support/http_client.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using nlohmann::json;

class DiagnoseDaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", RailNode(2)).ok());
    dir_.WriteFile("proc/sys/kernel/random/boot_id", "5c0e2f3a-1b2c-4d5e-8f90-0123456789ab\n");
  }
  // mlx5_0's address went and came back while a job held its GIDs: 2/3 -> 4/5.
  void DriftMlx50() {
    std::vector<FixtureDevice> node = RailNode(2);
    for (FixtureGid& gid : node[0].ports[0].gids)
      if (gid.index >= 2) gid.index += 2;
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", node).ok());
  }
  // Waits (bounded) until the daemon reports mlx5_0's drift.
  static json AwaitDrift(DaemonProcess& daemon) {
    for (int i = 0; i < 100; ++i) {
      StatusOr<json> now = Findings(daemon);
      if (now.ok() && HasFinding((*now)["findings"], "gid_drift", "mlx5_0/1", "")) return *now;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return json();
  }
  std::string Diagnose(const std::string& daemon, const std::string& mode, int* status) {
    return RunCommand(std::string(ROCEWATCH_BINARY) + " diagnose " + mode + " --host-root " +
                          dir_.path() + " --daemon " + daemon + " 2>/dev/null",
                      status);
  }
  static StatusOr<json> Findings(DaemonProcess& daemon) {
    StatusOr<HttpResponse> answer = daemon.Get("/api/v1/findings");
    if (!answer.ok()) return answer.status();
    if (answer->status != 200) return Status::Unavailable(std::to_string(answer->status));
    json doc = json::parse(answer->body, nullptr, false);
    if (doc.is_discarded()) return Status::Corrupt(answer->body);
    return doc;
  }
  static bool HasFinding(const json& findings, const std::string& check, const std::string& subject,
                         const std::string& words) {
    for (const json& f : findings)
      if (f["check"] == check && f["subject"] == subject &&
          f["message"].get<std::string>().find(words) != std::string::npos)
        return true;
    return false;
  }
  TempDir dir_;
};

TEST_F(DiagnoseDaemonTest, DiagnoseReportsWhatTheDaemonSaw) {
  auto daemon = DaemonProcess::Start({"--host-root", dir_.path(), "--state-file", "", "--interval",
                                      "200ms", "--gid-backstop", "200ms"});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  const std::string url = "http://127.0.0.1:" + std::to_string((*daemon)->port());
  int status = -1;
  std::string before = Diagnose(url, "--json", &status);
  EXPECT_LT(status, 2) << "a healthy two-rail node: " << before;
  Diagnose(url, "--npd", &status);
  EXPECT_EQ(status, 0);

  DriftMlx50();
  json doc = AwaitDrift(**daemon);
  ASSERT_TRUE(HasFinding(doc["findings"], "gid_drift", "mlx5_0/1", "from index 3 to 5"))
      << doc.dump(1);
  for (const json& f : doc["findings"]) {
    EXPECT_TRUE(f.contains("since") && f.contains("last_seen") && f.contains("remedy")) << f;
    EXPECT_EQ(f["since"].get<std::string>().size(), 20u) << f;  // 2026-12-01T08:17:23Z
  }
  bool drift_event = false;
  for (const json& e : doc["events"])
    drift_event |=
        e["kind"] == "gid_drift" && e["subject"] == "mlx5_0/1" &&
        e["message"].get<std::string>().find("old_index=3 new_index=5") != std::string::npos;
  EXPECT_TRUE(drift_event) << doc["events"].dump(1);

  std::string report = Diagnose(url, "--json", &status);
  EXPECT_EQ(status, 2) << report;
  json merged = json::parse(report, nullptr, false);
  ASSERT_FALSE(merged.is_discarded()) << report;
  EXPECT_EQ(merged["status"], "critical");
  EXPECT_TRUE(HasFinding(merged["findings"], "gid_drift", "mlx5_0/1", "from index 3 to 5"))
      << report;
  EXPECT_TRUE(HasFinding(merged["findings"], "daemon", url, "merged")) << report;

  std::string npd = Diagnose(url, "--npd", &status);
  EXPECT_EQ(status, 1) << npd;
  EXPECT_EQ(npd.rfind("critical ", 0), 0u) << npd;
  EXPECT_EQ((*daemon)->Stop(), 0);
}

TEST_F(DiagnoseDaemonTest, AnUnreachableDaemonIsAnInfoLineNotAnError) {
  const std::string url = "http://127.0.0.1:" + std::to_string(FreeLoopbackPort());
  int with_daemon = -1, without = -1;
  std::string report = Diagnose(url, "--json", &with_daemon);
  Diagnose("none", "--json", &without);
  EXPECT_EQ(with_daemon, without) << "an absent daemon changes nothing but an info line";
  json doc = json::parse(report, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << report;
  bool info = false;
  for (const json& f : doc["findings"])
    info |= f["check"] == "daemon_unreachable" && f["severity"] == "info" && f["subject"] == url;
  EXPECT_TRUE(info) << report;
  std::string text = Diagnose(url, "", &with_daemon);
  EXPECT_NE(text.find("no rocewatch daemon answered at " + url), std::string::npos) << text;
}

TEST_F(DiagnoseDaemonTest, TheDaemonOfAnotherHostIsNotMerged) {
  auto daemon = DaemonProcess::Start({"--host-root", dir_.path(), "--state-file", ""});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  // A support bundle of another host (another boot id), diagnosed on this one.
  TempDir other;
  ASSERT_TRUE(WriteSysfsFixture(other.path() + "/sys", RailNode(2)).ok());
  other.WriteFile("proc/sys/kernel/random/boot_id", "0b1e5c1a-0000-4000-8000-00000000000b\n");
  int status = 0;
  std::string report = RunCommand(
      std::string(ROCEWATCH_BINARY) + " diagnose --json --host-root " + other.path() +
          " --daemon http://127.0.0.1:" + std::to_string((*daemon)->port()) + " 2>/dev/null",
      &status);
  json doc = json::parse(report, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << report;
  bool refused = false, merged = false;
  for (const json& f : doc["findings"]) {
    refused |= f["check"] == "daemon_other_host";
    merged |= f["check"] == "daemon";
  }
  EXPECT_TRUE(refused) << report;
  EXPECT_FALSE(merged) << report;
  EXPECT_EQ((*daemon)->Stop(), 0);
}

TEST_F(DiagnoseDaemonTest, ABundleCarriesTheDaemonsFindingsRecordedAtCollectionTime) {
  auto daemon = DaemonProcess::Start({"--host-root", dir_.path(), "--state-file", "", "--interval",
                                      "200ms", "--gid-backstop", "200ms"});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  const std::string url = "http://127.0.0.1:" + std::to_string((*daemon)->port());
  DriftMlx50();
  ASSERT_TRUE(HasFinding(AwaitDrift(**daemon)["findings"], "gid_drift", "mlx5_0/1", ""));
  TempDir out;
  const std::string bundle = out.path() + "/bundle";
  int status = -1;
  const std::string err = RunCommand(std::string(ROCEWATCH_BINARY) + " collect --no-optics " +
                                         "--lldp-wait 0 --daemon " + url + " --host-root " +
                                         dir_.path() + " " + bundle + " 2>&1 >/dev/null",
                                     &status);
  ASSERT_EQ(status, 0) << err;
  EXPECT_EQ((*daemon)->Stop(), 0);  // the bundle is read with no daemon running

  // The drift is the daemon's knowledge: a one-shot run on the bundle sees only its holes.
  auto diagnose = [&](const std::string& flags) {
    return RunCommand(std::string(ROCEWATCH_BINARY) + " diagnose --link-window 0 " + flags +
                          " --host-root " + bundle + " 2>/dev/null",
                      &status);
  };
  diagnose("--json --daemon none");
  EXPECT_EQ(status, 1);
  const std::string report = diagnose("--json");
  EXPECT_EQ(status, 2) << report;
  json merged = json::parse(report, nullptr, false);
  ASSERT_FALSE(merged.is_discarded()) << report;
  EXPECT_TRUE(HasFinding(merged["findings"], "gid_drift", "mlx5_0/1", "from index 3 to 5"))
      << report;
  bool recorded = false;
  for (const json& f : merged["findings"])
    recorded |= f["check"] == "daemon" && f["subject"] == url && f.contains("recorded_at");
  EXPECT_TRUE(recorded) << report;
  EXPECT_NE(diagnose("").find("The daemon's findings were recorded at collection time, "),
            std::string::npos);
}

TEST_F(DiagnoseDaemonTest, ABadDaemonUrlIsAOneLineErrorStatusThree) {
  int status = 0;
  std::string err = RunCommand(std::string(ROCEWATCH_BINARY) + " diagnose --host-root " +
                                   dir_.path() + " --daemon https://x:1 2>&1 >/dev/null",
                               &status);
  EXPECT_EQ(status, 3);
  EXPECT_NE(err.find("--daemon: 'https://x:1': https is not supported"), std::string::npos) << err;
}

}  // namespace
}  // namespace rocewatch
