#include "export/daemon_findings.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

constexpr double kFirstSeen = 1796113043.869;  // 2026-12-01T08:17:23.869Z

TEST(DaemonFindingsTest, EventsAreNamedByKindAndSubject) {
  const std::string drift =
      "gid_drift device=mlx5_0 port=1 netdev=eth0 gid=0000:0000:0000:0000:0000:ffff:0a00:0001 "
      "type=roce_v2 old_index=3 new_index=5";
  EXPECT_EQ(EventKind(drift), "gid_drift");
  EXPECT_EQ(EventSubject(drift), "mlx5_0/1");
  EXPECT_EQ(EventKind("eth0: carrier down (operstate DOWN)"), "netdev");
  EXPECT_EQ(EventSubject("eth0: carrier down (operstate DOWN)"), "eth0");
  EXPECT_EQ(EventKind("traffic collapsed netdev=eth1"), "traffic");
  EXPECT_EQ(EventSubject("traffic collapsed netdev=eth1"), "eth1");
  EXPECT_EQ(EventKind("Something Else"), "event");
  EXPECT_EQ(EventSubject(""), "");
}

TEST(DaemonFindingsTest, TheDocumentRoundTripsWithRfc3339Times) {
  std::vector<TimedFinding> findings = {
      {{Severity::kCritical, "gid_drift", "mlx5_0/1", "moved 3 -> 5", "restart the job"},
       kFirstSeen,
       kFirstSeen + 157}};
  std::deque<RecordedEvent> events = {{kFirstSeen, Severity::kWarning, "eth0: carrier down"}};
  nlohmann::ordered_json doc = DaemonFindingsToJson(findings, events, "b00t");
  EXPECT_EQ(doc["findings"][0]["since"], "2026-12-01T08:17:23Z");
  EXPECT_EQ(doc["findings"][0]["last_seen"], "2026-12-01T08:20:00Z");
  EXPECT_EQ(doc["events"][0]["time"], "2026-12-01T08:17:23.869Z");
  EXPECT_EQ(doc["events"][0]["kind"], "netdev");

  StatusOr<DaemonFindings> parsed = ParseDaemonFindings(doc.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->findings.size(), 1u);
  EXPECT_EQ(parsed->findings[0], findings[0].finding);
  EXPECT_EQ(parsed->since[0], "2026-12-01T08:17:23Z");
  ASSERT_EQ(parsed->events.size(), 1u);
  EXPECT_EQ(parsed->events[0].severity, Severity::kWarning);
  EXPECT_EQ(parsed->events[0].message, "eth0: carrier down");
  EXPECT_EQ(parsed->boot_id, "b00t");
}

TEST(DaemonFindingsTest, AnythingElseIsCorruptNeverACrash) {
  for (const char* text : {"", "[]", "null", "{\"findings\": 3}",
                           "{\"findings\": [{\"severity\": \"bad\", \"check\": \"x\", "
                           "\"subject\": \"y\", \"message\": \"z\"}]}",
                           "{\"findings\": [{\"severity\": \"info\"}]}", "<html>"}) {
    StatusOr<DaemonFindings> parsed = ParseDaemonFindings(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(parsed.status().code(), StatusCode::kCorrupt) << text;
  }
}

TEST(DaemonFindingsTest, MergingAddsWhatTheOneShotCannotSeeAndNeverDuplicates) {
  std::vector<Finding> local = {{Severity::kWarning, "port_not_active", "mlx5_1/1", "local", "r"},
                                {Severity::kWarning, "gid_drift", "mlx5_0/1", "local view", "r"}};
  DaemonFindings daemon;
  daemon.findings = {{Severity::kCritical, "gid_drift", "mlx5_0/1", "moved 3 -> 5", "r"},
                     {Severity::kCritical, "ip_missing_after_flap", "eth1", "lost 10.0.1.2", "r"}};
  daemon.since = {"2026-12-01T08:17:23Z", ""};
  MergeDaemonFindings(daemon, local);
  ASSERT_EQ(local.size(), 3u);
  EXPECT_EQ(local[1].severity, Severity::kCritical) << "the daemon rates it worse";
  EXPECT_EQ(local[1].message, "local view");
  EXPECT_EQ(local[2].check, "ip_missing_after_flap");
  EXPECT_EQ(local[2].message, "lost 10.0.1.2 (daemon)");
  EXPECT_EQ(WorstSeverity(local), Severity::kCritical);
}

}  // namespace
}  // namespace rocewatch
