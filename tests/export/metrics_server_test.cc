#include "export/metrics_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "export/metric_families.h"
#include "support/http_client.h"

namespace rocewatch {
namespace {

// Serves the families the test set last (the server's side of /metrics only; how the daemon
// builds them is export/on_demand_exposition.h).
class FixedCollectable final : public prometheus::Collectable {
 public:
  void Publish(std::vector<prometheus::MetricFamily> families) {
    std::lock_guard<std::mutex> lock(mutex_);
    families_ = std::move(families);
  }
  std::vector<prometheus::MetricFamily> Collect() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return families_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<prometheus::MetricFamily> families_;
};

class MetricsServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = MetricsServer::Start(
        *ParseListenAddress("127.0.0.1:0"), metrics_, [this] { return healthy_.load(); },
        [this] {
          std::lock_guard<std::mutex> lock(findings_mutex_);
          return findings_;
        });
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    server_ = std::move(started).value();
  }
  void SetFindings(std::shared_ptr<const std::string> document) {
    std::lock_guard<std::mutex> lock(findings_mutex_);
    findings_ = std::move(document);
  }
  std::shared_ptr<FixedCollectable> metrics_ = std::make_shared<FixedCollectable>();
  std::atomic<bool> healthy_{true};
  std::mutex findings_mutex_;
  std::shared_ptr<const std::string> findings_;  // GUARDED_BY(findings_mutex_)
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

TEST_F(MetricsServerTest, FindingsAreTheCallbacksDocumentOr503WhileThereIsNone) {
  auto none = HttpGet("127.0.0.1", server_->port(), "/api/v1/findings");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->status, 503);
  SetFindings(std::make_shared<const std::string>(R"({"findings": [], "events": []})"));
  auto served = HttpGet("127.0.0.1", server_->port(), "/api/v1/findings");
  ASSERT_TRUE(served.ok());
  EXPECT_EQ(served->status, 200);
  EXPECT_EQ(served->body, R"({"findings": [], "events": []})");
}

TEST_F(MetricsServerTest, FindingsAre404WithoutACallback) {
  auto other =
      MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), metrics_, [] { return true; });
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  auto response = HttpGet("127.0.0.1", (*other)->port(), "/api/v1/findings");
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 404);
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
