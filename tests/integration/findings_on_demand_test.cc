// GET /api/v1/findings of the daemon (Daemon in-process, its loop on its own thread as in
// `rocewatch run`): the document is built on the loop when a request asks for it and only after a
// poll or an event changed it, and every concurrent request gets a whole document.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "export/daemon_findings.h"
#include "support/http_client.h"
#include "support/in_process_daemon.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

class FindingsOnDemandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(root_, RailNode(2)).ok());
    ASSERT_TRUE(daemon_.Start().ok());
  }
  StatusOr<DaemonFindings> Findings() {
    StatusOr<HttpResponse> answer = HttpGet("127.0.0.1", daemon_.port(), "/api/v1/findings");
    if (!answer.ok()) return answer.status();
    if (answer->status != 200) return Status::Unavailable(std::to_string(answer->status));
    return ParseDaemonFindings(answer->body);
  }
  static bool HasFinding(const DaemonFindings& doc, const std::string& check) {
    for (const Finding& f : doc.findings)
      if (f.check == check) return true;
    return false;
  }

  TempDir dir_;
  const std::string root_ = dir_.path() + "/sys";
  PosixFileSystem fs_;
  InProcessDaemon daemon_{fs_, root_};
};

TEST_F(FindingsOnDemandTest, BuiltOnlyWhenAskedAndOnlyAfterAChange) {
  EXPECT_EQ(daemon_.findings_builds(), 0u);  // polls alone build no document
  ASSERT_TRUE(daemon_.Poll().ok());
  EXPECT_EQ(daemon_.findings_builds(), 0u);

  StatusOr<DaemonFindings> first = Findings();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_FALSE(HasFinding(*first, "gid_drift"));
  EXPECT_EQ(daemon_.findings_builds(), 1u);
  ASSERT_TRUE(Findings().ok());
  ASSERT_TRUE(Findings().ok());
  EXPECT_EQ(daemon_.findings_builds(), 1u);  // nothing changed: the same document

  // mlx5_0's address went and came back while a job held its GIDs: 2/3 -> 4/5.
  std::vector<FixtureDevice> node = RailNode(2);
  for (FixtureGid& gid : node[0].ports[0].gids)
    if (gid.index >= 2) gid.index += 2;
  ASSERT_TRUE(WriteSysfsFixture(root_, node).ok());
  ASSERT_TRUE(daemon_.Poll().ok());
  StatusOr<DaemonFindings> drifted = Findings();
  ASSERT_TRUE(drifted.ok()) << drifted.status().ToString();
  EXPECT_TRUE(HasFinding(*drifted, "gid_drift"));
  EXPECT_EQ(daemon_.findings_builds(), 2u);
}

TEST_F(FindingsOnDemandTest, ConcurrentRequestsAllGetAWholeDocument) {
  std::atomic<int> whole{0};
  std::vector<std::thread> readers;
  for (int i = 0; i < 4; ++i) {
    readers.emplace_back([&] {
      for (int n = 0; n < 10; ++n)
        if (Findings().ok()) ++whole;
    });
  }
  for (int n = 0; n < 5; ++n) EXPECT_TRUE(daemon_.Poll().ok());
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(whole.load(), 40);
  EXPECT_GE(daemon_.findings_builds(), 1u);
  EXPECT_LE(daemon_.findings_builds(), 40u);
}

}  // namespace
}  // namespace rocewatch
