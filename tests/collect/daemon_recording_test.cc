// `collect` records the running daemon's answer in the bundle, and `diagnose --host-root` of the
// bundle merges it as it merges a live daemon's, marked as recorded at collection time. Both
// commands run in-process on a fake host (tests/support/fake_host_env.h) whose fetch plays the
// daemon; a bundle is untrusted, so a corrupt or oversized recording is a note, never a crash.
#include "diagnose/daemon_recording.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "collect/collect_command.h"
#include "diagnose/diagnose_command.h"
#include "export/daemon_findings.h"
#include "support/fake_file_system.h"
#include "support/fake_host_env.h"
#include "support/netlink_builders.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

constexpr double kCollectedAt = 1796112000;  // 2026-12-01T08:00:00Z
const HttpUrl kDaemon{"127.0.0.1", 9879, "/", ""};
const char* kMetrics =
    "# TYPE rocewatch_last_poll_timestamp_seconds gauge\n"
    "rocewatch_last_poll_timestamp_seconds 1796111999.5\n";

// What the daemon of a node with a wiped policy rule serves at /api/v1/findings.
std::string CriticalFindings() {
  TimedFinding missing{{Severity::kCritical, "policy_routing_missing", "ens2f0np0",
                        "ens2f0np0: no policy rule for 10.0.1.2", "Restore the rule."},
                       kCollectedAt - 600,
                       kCollectedAt - 1};
  std::deque<RecordedEvent> events{
      {kCollectedAt - 600, Severity::kCritical, "ens2f0np0: policy rule for 10.0.1.2 removed"}};
  return DaemonFindingsToJson({missing}, events, "").dump();
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool HasFinding(const nlohmann::json& report, const std::string& check) {
  for (const auto& f : report["findings"])
    if (f["check"] == check) return true;
  return false;
}

nlohmann::json FindingOf(const nlohmann::json& report, const std::string& check) {
  for (const auto& f : report["findings"])
    if (f["check"] == check) return f;
  return nlohmann::json();
}

class DaemonRecordingTest : public ::testing::Test {
 protected:
  // Two healthy rails, mlx5_0 (ens1f0np0, 10.0.0.2) and mlx5_1 (ens2f0np0, 10.0.1.2).
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(host_root_.path() + "/sys", RailNode(2, 16)).ok());
    host_.netlink().links = {MakeLink(1, "lo", true), MakeLink(2, "ens1f0np0", true),
                             MakeLink(3, "ens2f0np0", true)};
    host_.netlink().addresses = {MakeAddress(2, "10.0.0.2/24"), MakeAddress(3, "10.0.1.2/24")};
    host_.clock().SetUnixBase(kCollectedAt);
  }
  // The daemon answers /api/v1/findings with `findings` and /metrics with kMetrics.
  void DaemonServes(const std::string& findings) {
    host_.env().fetch = [this, findings](const HttpUrl& url, Duration) -> StatusOr<FetchedPage> {
      asked_.push_back(url.path);
      if (url.path == "/api/v1/findings") return FetchedPage{200, findings};
      if (url.path == "/metrics") return FetchedPage{200, kMetrics};
      return FetchedPage{404, ""};
    };
  }
  int Collect() {
    CollectCommandOptions options;
    options.common.paths = HostPaths::ForRoots(host_root_.path());
    options.common.gid_source = GidSourceChoice::kSysfs;
    options.directory = Bundle();
    options.lldp_wait = Duration::zero();
    options.consumers.kubelet_socket = "none";
    options.daemon = kDaemon;
    options.daemon_text = "http://127.0.0.1:9879";
    std::ostringstream out, err;
    const int status = RunCollect(host_.env(), options, out, err);
    collect_err_ = err.str();
    return status;
  }
  // diagnose --host-root <bundle> with the default --daemon, or `daemon` named explicitly
  // (nullopt: --daemon none).
  nlohmann::json Diagnose(bool json = true, std::optional<std::optional<HttpUrl>> daemon = {}) {
    DiagnoseOptions options;
    options.common.paths = HostPaths::ForRoots(Bundle());
    options.common.gid_source = GidSourceChoice::kSysfs;
    options.json = json;
    options.link_window = Duration::zero();
    options.consumers.kubelet_socket = "none";
    if (daemon) {
      options.daemon = *daemon;
      options.daemon_given = true;
    }
    asked_.clear();
    std::ostringstream out, err;
    status_ = RunDiagnose(host_.env(), options, out, err, /*out_is_terminal=*/false);
    text_ = out.str();
    return json ? nlohmann::json::parse(text_) : nlohmann::json();
  }
  std::string Bundle() const { return out_.path() + "/bundle"; }

  TempDir host_root_, out_;
  PosixFileSystem fs_;
  FakeHostEnv host_{fs_};
  std::vector<std::string> asked_;
  std::string collect_err_, text_;
  int status_ = -1;
};

TEST_F(DaemonRecordingTest, CollectRecordsWhatTheDaemonServed) {
  const std::string findings = CriticalFindings();
  DaemonServes(findings);
  ASSERT_EQ(Collect(), 0) << collect_err_;
  EXPECT_EQ(asked_, (std::vector<std::string>{"/api/v1/findings", "/metrics", "/api/v1/state"}));
  EXPECT_EQ(ReadAll(Bundle() + "/rocewatch/daemon/findings.json"), findings);
  EXPECT_EQ(ReadAll(Bundle() + "/rocewatch/daemon/metrics.prom"), kMetrics);
  const auto answer = nlohmann::json::parse(ReadAll(Bundle() + "/rocewatch/daemon/answer.json"));
  EXPECT_EQ(answer["url"], "http://127.0.0.1:9879");
  EXPECT_EQ(answer["asked_at_unix"], kCollectedAt);
  EXPECT_EQ(answer["answered"], true);
  EXPECT_FALSE(answer.contains("error"));
  struct stat st;
  ASSERT_EQ(stat((Bundle() + "/rocewatch/daemon/findings.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u) << "a bundle file is its owner's only";
  ASSERT_EQ(stat((Bundle() + "/rocewatch/daemon").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u);
  const auto meta = nlohmann::json::parse(ReadAll(Bundle() + "/rocewatch/bundle.json"));
  EXPECT_EQ(meta["failures"], nlohmann::json::array());
}

TEST_F(DaemonRecordingTest, TheDaemonsStateIsRecordedAndReadBackTyped) {
  DaemonState served;
  served.last_poll_unix = kCollectedAt - 1;
  served.ports = {{"mlx5_0", 1, TrafficState::kCollapsed, 1.2e10, false, 10, 20}};
  served.netdevs = {{"ens1f0np0", "degraded", 1e-9, {}}};
  const std::string state = DaemonStateToJson(served).dump();
  host_.env().fetch = [this, state](const HttpUrl& url, Duration) -> StatusOr<FetchedPage> {
    asked_.push_back(url.path);
    if (url.path == "/api/v1/findings") return FetchedPage{200, CriticalFindings()};
    if (url.path == "/metrics") return FetchedPage{200, kMetrics};
    return FetchedPage{200, state};
  };
  ASSERT_EQ(Collect(), 0) << collect_err_;
  EXPECT_EQ(ReadAll(Bundle() + "/rocewatch/daemon/state.json"), state);
  EXPECT_EQ(ReadAll(Bundle() + "/rocewatch/daemon/metrics.prom"), kMetrics);
  std::optional<DaemonView> view = ReadDaemonRecording(fs_, Bundle(), "");
  ASSERT_TRUE(view && view->state) << (view ? view->state_problem : "no recording");
  EXPECT_EQ(view->state_source, "/api/v1/state");
  ASSERT_EQ(view->state->ports.size(), 1u);
  EXPECT_EQ(view->state->ports[0].traffic_state, TrafficState::kCollapsed);
  EXPECT_EQ(view->state->ports[0].baseline, 1.2e10);
  ASSERT_EQ(view->state->netdevs.size(), 1u);
  EXPECT_EQ(view->state->netdevs[0].link_quality, "degraded");
}

TEST_F(DaemonRecordingTest, ABundleOfANodeWithCriticalDaemonFindingsReadsBackCritical) {
  DaemonServes(CriticalFindings());
  ASSERT_EQ(Collect(), 0) << collect_err_;
  const nlohmann::json report = Diagnose();
  EXPECT_EQ(status_, 2);
  EXPECT_EQ(report["status"], "critical");
  EXPECT_TRUE(HasFinding(report, "policy_routing_missing")) << report["findings"].dump(1);
  EXPECT_EQ(FindingOf(report, "daemon")["recorded_at"], "2026-12-01T08:00:00Z");
  EXPECT_EQ(report["daemon_events"].size(), 1u);
  EXPECT_EQ(asked_, std::vector<std::string>{}) << "the recording stands in for the daemon";

  Diagnose(/*json=*/false);
  EXPECT_NE(text_.find("recorded at collection time, 2026-12-01T08:00:00Z"), std::string::npos)
      << text_;
  // Without the recording the same bundle is a healthy node.
  EXPECT_EQ(Diagnose(true, std::optional<HttpUrl>())["status"], "healthy");
}

TEST_F(DaemonRecordingTest, ADaemonNamedExplicitlyIsAskedInsteadOfTheRecording) {
  DaemonServes(CriticalFindings());
  ASSERT_EQ(Collect(), 0) << collect_err_;
  DaemonServes(R"({"findings": [], "events": []})");
  const nlohmann::json report = Diagnose(true, std::optional<HttpUrl>(kDaemon));
  EXPECT_EQ(asked_, (std::vector<std::string>{"/api/v1/findings", "/metrics", "/api/v1/state"}));
  EXPECT_EQ(report["status"], "healthy");
  EXPECT_FALSE(FindingOf(report, "daemon").contains("recorded_at"));
}

TEST_F(DaemonRecordingTest, AnUnreachableDaemonIsOneFailureLineNotAFailedCollect) {
  ASSERT_EQ(Collect(), 0) << collect_err_;  // the fake host's fetch is refused
  const auto meta = nlohmann::json::parse(ReadAll(Bundle() + "/rocewatch/bundle.json"));
  EXPECT_EQ(meta["failures"], nlohmann::json::array({"daemon http://127.0.0.1:9879: connection "
                                                     "refused"}));
  EXPECT_FALSE(std::ifstream(Bundle() + "/rocewatch/daemon/findings.json").good());
  const auto answer = nlohmann::json::parse(ReadAll(Bundle() + "/rocewatch/daemon/answer.json"));
  EXPECT_EQ(answer["answered"], false);
  EXPECT_EQ(answer["error"], "connection refused");

  const nlohmann::json report = Diagnose();
  EXPECT_EQ(status_, 0);
  const nlohmann::json note = FindingOf(report, "daemon_unreachable");
  EXPECT_EQ(note["severity"], "info");
  EXPECT_NE(note["message"].get<std::string>().find("at collection time"), std::string::npos)
      << note;
  EXPECT_EQ(note["recorded_at"], "2026-12-01T08:00:00Z");
}

TEST_F(DaemonRecordingTest, ACorruptRecordingIsANoteInTheReport) {
  DaemonServes(CriticalFindings());
  ASSERT_EQ(Collect(), 0) << collect_err_;
  std::ofstream(Bundle() + "/rocewatch/daemon/findings.json") << "{\"findings\": [{\"sever";
  const nlohmann::json report = Diagnose();
  EXPECT_EQ(status_, 0);
  EXPECT_FALSE(HasFinding(report, "policy_routing_missing"));
  const std::string message = FindingOf(report, "daemon_unreachable")["message"];
  EXPECT_NE(message.find("recorded in the bundle is unusable"), std::string::npos) << message;
}

// The recording read back directly: each defect is a problem of the view, never an exception.
class ReadDaemonRecordingTest : public ::testing::Test {
 protected:
  void Answer(const std::string& text) { fs_.AddFile("/b/rocewatch/daemon/answer.json", text); }
  std::optional<DaemonView> Read() { return ReadDaemonRecording(fs_, "/b", ""); }
  FakeFileSystem fs_;
};

TEST_F(ReadDaemonRecordingTest, NoRecordingIsNoView) { EXPECT_FALSE(Read().has_value()); }

TEST_F(ReadDaemonRecordingTest, ARecordedAnswerIsViewedAsALiveOne) {
  Answer(R"({"url": "http://10.0.0.1:9879", "asked_at_unix": 1796112000, "answered": true})");
  fs_.AddFile("/b/rocewatch/daemon/findings.json", CriticalFindings());
  std::optional<DaemonView> view = Read();
  ASSERT_TRUE(view.has_value());
  EXPECT_TRUE(view->usable()) << view->problem.ToString();
  EXPECT_EQ(view->where, "http://10.0.0.1:9879");
  EXPECT_EQ(view->recorded_at_unix, kCollectedAt);
  ASSERT_EQ(view->findings.findings.size(), 1u);
  EXPECT_EQ(view->metrics_problem, "not recorded");
}

TEST_F(ReadDaemonRecordingTest, AnAnswerThatIsNotTheRecordingIsAProblem) {
  for (const char* text : {"{", "[]", R"({"url": 5, "asked_at_unix": 1, "answered": true})",
                           R"({"url": "u", "answered": true})",
                           R"({"url": "u", "asked_at_unix": 1e300, "answered": true})"}) {
    Answer(text);
    std::optional<DaemonView> view = Read();
    ASSERT_TRUE(view.has_value()) << text;
    EXPECT_EQ(view->problem.code(), StatusCode::kCorrupt) << text;
    EXPECT_FALSE(view->usable());
  }
}

TEST_F(ReadDaemonRecordingTest, AnOversizedDocumentIsRefusedNotCut) {
  Answer(R"({"url": "u", "asked_at_unix": 1796112000, "answered": true})");
  std::string big = CriticalFindings();
  big.append(kMaxDaemonDocumentBytes + 1 - big.size(), ' ');  // valid JSON, one byte too many
  fs_.AddFile("/b/rocewatch/daemon/findings.json", big);
  std::optional<DaemonView> view = Read();
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(view->problem.code(), StatusCode::kCorrupt);
  EXPECT_NE(view->problem.message().find("larger than"), std::string::npos)
      << view->problem.ToString();
  big.pop_back();  // at the bound: read
  fs_.AddFile("/b/rocewatch/daemon/findings.json", big);
  EXPECT_TRUE(Read()->usable());
}

}  // namespace
}  // namespace rocewatch
