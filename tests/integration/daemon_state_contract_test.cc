// GET /api/v1/state of the daemon (Daemon in-process, its loop on its own thread as in
// `rocewatch run`), read through the very code `rocewatch diagnose --daemon URL` reads it with
// (ViewDaemon): the typed state round-trips, and agrees with what the same daemon's /metrics says
// of the same poll.
#include <gtest/gtest.h>

#include <string>

#include "diagnose/daemon_state_from_metrics.h"
#include "diagnose/daemon_view.h"
#include "support/http_client.h"
#include "support/in_process_daemon.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

class DaemonStateContractTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(root_, RailNode(2)).ok());
    ASSERT_TRUE(daemon_.Start().ok());
  }
  // The daemon's documents, as LiveDaemon gives them to diagnose.
  DaemonDocuments Documents() {
    return [this](const std::string& path) -> StatusOr<std::string> {
      StatusOr<HttpResponse> answer = HttpGet("127.0.0.1", daemon_.port(), path);
      if (!answer.ok()) return answer.status();
      if (answer->status == 404) return Status::NotFound(path);
      if (answer->status != 200) return Status::Unavailable(std::to_string(answer->status));
      return answer->body;
    };
  }

  TempDir dir_;
  const std::string root_ = dir_.path() + "/sys";
  PosixFileSystem fs_;
  InProcessDaemon daemon_{fs_, root_};
};

TEST_F(DaemonStateContractTest, DiagnoseReadsTheServedStateTyped) {
  ASSERT_TRUE(daemon_.Poll().ok());
  ASSERT_TRUE(daemon_.Poll().ok());
  DaemonView view = ViewDaemon(Documents(), "in-process", "");
  ASSERT_TRUE(view.usable()) << view.problem.ToString();
  ASSERT_TRUE(view.state) << view.state_problem;
  EXPECT_EQ(view.state_source, "/api/v1/state");
  EXPECT_FALSE(view.state_text.empty());
  EXPECT_GT(view.state->last_poll_unix, 0);
  EXPECT_GE(view.state->generated_at_unix, view.state->last_poll_unix);
  ASSERT_EQ(view.state->ports.size(), 2u);
  EXPECT_EQ(view.state->ports[0].device, "mlx5_0");
  EXPECT_EQ(view.state->ports[0].port, 1u);

  // The same poll, as the exposition tells it.
  const DaemonState from_metrics = DaemonStateFromMetrics(view.metrics);
  ASSERT_EQ(from_metrics.ports.size(), view.state->ports.size());
  for (size_t i = 0; i < from_metrics.ports.size(); ++i) {
    const DaemonPortState &served = view.state->ports[i], &exposed = from_metrics.ports[i];
    EXPECT_EQ(served.device, exposed.device);
    EXPECT_EQ(served.traffic_state, exposed.traffic_state) << served.device;
    EXPECT_EQ(served.baseline, exposed.baseline) << served.device;
    EXPECT_EQ(served.transmit_bytes, exposed.transmit_bytes) << served.device;
    EXPECT_EQ(served.receive_bytes, exposed.receive_bytes) << served.device;
  }
  EXPECT_EQ(view.state->netdevs.size(), from_metrics.netdevs.size());
  EXPECT_EQ(DaemonTrafficView(*view.state, MonoTime{}, view.state->last_poll_unix).size(), 2u);
}

}  // namespace
}  // namespace rocewatch
