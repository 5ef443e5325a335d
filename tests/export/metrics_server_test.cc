#include "export/metrics_server.h"

#include <gtest/gtest.h>

#include <atomic>

#include "export/metric_families.h"
#include "export/snapshot_collectable.h"
#include "support/http_client.h"

namespace rocewatch {
namespace {

class MetricsServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), metrics_,
                                        [this] { return healthy_.load(); });
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    server_ = std::move(started).value();
  }
  std::shared_ptr<SnapshotCollectable> metrics_ = std::make_shared<SnapshotCollectable>();
  std::atomic<bool> healthy_{true};
  std::unique_ptr<MetricsServer> server_;
};

TEST_F(MetricsServerTest, ServesTheLastPublishedExposition) {
  MetricFamilies families;
  families.Gauge("rocewatch_port_active", "help", {{"device", "mlx5_0"}, {"port", "1"}}, 1);
  metrics_->Publish(families.Take());
  auto response = HttpGet("127.0.0.1", server_->port(), "/metrics");
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(FindSample(response->body, R"(rocewatch_port_active{device="mlx5_0",port="1"})"), 1);

  MetricFamilies next;
  next.Gauge("rocewatch_port_active", "help", {{"device", "mlx5_0"}, {"port", "1"}}, 0);
  metrics_->Publish(next.Take());
  response = HttpGet("127.0.0.1", server_->port(), "/metrics");
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(FindSample(response->body, R"(rocewatch_port_active{device="mlx5_0",port="1"})"), 0);
}

TEST_F(MetricsServerTest, HealthzFollowsTheHealthCheck) {
  auto ok = HttpGet("127.0.0.1", server_->port(), "/healthz");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->status, 200);
  healthy_ = false;
  auto stalled = HttpGet("127.0.0.1", server_->port(), "/healthz");
  ASSERT_TRUE(stalled.ok());
  EXPECT_EQ(stalled->status, 503);
}

TEST_F(MetricsServerTest, ASecondServerOnTheSamePortFailsWithAClearError) {
  auto second =
      MetricsServer::Start(*ParseListenAddress("127.0.0.1:" + std::to_string(server_->port())),
                           metrics_, [] { return true; });
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find("cannot listen"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
