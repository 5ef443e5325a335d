#include "export/metrics_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "export/exposition_writer.h"
#include "export/metric_families.h"
#include "support/gunzip.h"
#include "support/http_client.h"

namespace rocewatch {
namespace {

class MetricsServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), Endpoints());
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    server_ = std::move(started).value();
  }
  MetricsServer::Endpoints Endpoints(bool with_findings = true) {
    MetricsServer::Endpoints endpoints{Exposition(), [this] { return health_.load(); }, nullptr};
    if (with_findings)
      endpoints.findings = [this] {
        std::lock_guard<std::mutex> lock(mutex_);
        return findings_;
      };
    if (with_findings)
      endpoints.state = [this] {
        std::lock_guard<std::mutex> lock(mutex_);
        return findings_ ? state_ : nullptr;
      };
    return endpoints;
  }
  // Serves the exposition the test set last (the server's side of /metrics only; how the daemon
  // builds it is core/on_demand.h and export/exposition_writer.h).
  MetricsServer::MetricsDocument Exposition() {
    return [this] {
      std::lock_guard<std::mutex> lock(mutex_);
      return exposition_;
    };
  }
  void Publish(std::vector<prometheus::MetricFamily> families) {
    auto text = std::make_shared<const ServedText>(WriteExposition(families));
    std::lock_guard<std::mutex> lock(mutex_);
    exposition_ = std::move(text);
  }
  void SetFindings(std::shared_ptr<const std::string> document) {
    std::lock_guard<std::mutex> lock(mutex_);
    findings_ = std::move(document);
  }
  std::atomic<MetricsServer::Health> health_{MetricsServer::Health::kLive};
  std::mutex mutex_;
  std::shared_ptr<const ServedText> exposition_;  // GUARDED_BY(mutex_)
  std::shared_ptr<const std::string> findings_;   // GUARDED_BY(mutex_)
  const std::shared_ptr<const std::string> state_ =
      std::make_shared<const std::string>(R"({"schema": "rocewatch.state", "version": 1})");
  std::unique_ptr<MetricsServer> server_;
};

TEST_F(MetricsServerTest, ServesTheLastPublishedExposition) {
  MetricFamilies families;
  families.Gauge("rocewatch_port_active", "help", {{"device", "mlx5_0"}, {"port", "1"}}, 1);
  Publish(families.Take());
  auto response = HttpGet("127.0.0.1", server_->port(), "/metrics");
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(FindSample(response->body, R"(rocewatch_port_active{device="mlx5_0",port="1"})"), 1);

  MetricFamilies next;
  next.Gauge("rocewatch_port_active", "help", {{"device", "mlx5_0"}, {"port", "1"}}, 0);
  Publish(next.Take());
  response = HttpGet("127.0.0.1", server_->port(), "/metrics");
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(FindSample(response->body, R"(rocewatch_port_active{device="mlx5_0",port="1"})"), 0);
}

TEST_F(MetricsServerTest, BeforeTheFirstExpositionMetricsIsNotReady) {
  auto response = HttpGet("127.0.0.1", server_->port(), "/metrics");
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 503);
  EXPECT_NE(response->body.find("not ready"), std::string::npos) << response->body;
}

TEST_F(MetricsServerTest, UntilTheFirstPollEveryEndpointAnswersNotReady) {
  MetricFamilies families;
  families.Gauge("rocewatch_port_active", "help", {{"device", "mlx5_0"}, {"port", "1"}}, 1);
  Publish(families.Take());
  SetFindings(std::make_shared<const std::string>("{}"));
  health_ = MetricsServer::Health::kNotReady;
  for (const char* path : {"/metrics", "/healthz", "/api/v1/findings", "/api/v1/state"}) {
    auto response = HttpGet("127.0.0.1", server_->port(), path);
    ASSERT_TRUE(response.ok()) << path;
    EXPECT_EQ(response->status, 503) << path;
    EXPECT_EQ(response->body, "not ready: no poll completed yet\n") << path;
  }
  health_ = MetricsServer::Health::kLive;
  for (const char* path : {"/metrics", "/healthz", "/api/v1/findings", "/api/v1/state"}) {
    auto response = HttpGet("127.0.0.1", server_->port(), path);
    ASSERT_TRUE(response.ok()) << path;
    EXPECT_EQ(response->status, 200) << path;
  }
}

TEST_F(MetricsServerTest, AScraperThatAcceptsGzipGetsTheExpositionCompressed) {
  MetricFamilies families;
  for (int device = 0; device < 16; ++device)
    families.Gauge("rocewatch_port_active", "help",
                   {{"device", "mlx5_" + std::to_string(device)}, {"port", "1"}}, 1);
  Publish(families.Take());
  auto plain = HttpGet("127.0.0.1", server_->port(), "/metrics");
  auto gzipped = HttpExchange("127.0.0.1", server_->port(),
                              "GET /metrics HTTP/1.0\r\nAccept-Encoding: gzip\r\n\r\n");
  ASSERT_TRUE(plain.ok() && gzipped.ok());
  EXPECT_EQ(plain->head.find("Content-Encoding"), std::string::npos);
  EXPECT_NE(plain->head.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(gzipped->head.find("Content-Encoding: gzip"), std::string::npos) << gzipped->head;
  EXPECT_LT(gzipped->body.size(), plain->body.size());
  EXPECT_EQ(Gunzip(gzipped->body), plain->body);
  EXPECT_EQ(FindSample(plain->body, R"(rocewatch_port_active{device="mlx5_15",port="1"})"), 1);
}

TEST_F(MetricsServerTest, HeadGetsTheHeadOnlyAndOtherMethodsAndPathsAreRefused) {
  SetFindings(std::make_shared<const std::string>("{}"));
  auto head = HttpExchange("127.0.0.1", server_->port(), "HEAD /api/v1/findings HTTP/1.0\r\n\r\n");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->status, 200);
  EXPECT_NE(head->head.find("Content-Length: 2"), std::string::npos) << head->head;
  EXPECT_EQ(head->body, "");
  auto post = HttpExchange("127.0.0.1", server_->port(),
                           "POST /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n");
  ASSERT_TRUE(post.ok());
  EXPECT_EQ(post->status, 405);
  auto elsewhere = HttpGet("127.0.0.1", server_->port(), "/metrics/../etc/passwd");
  ASSERT_TRUE(elsewhere.ok());
  EXPECT_EQ(elsewhere->status, 404);
  auto unknown = HttpGet("127.0.0.1", server_->port(), "/");
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(unknown->status, 404);
}

TEST_F(MetricsServerTest, HealthzFollowsTheHealthCheck) {
  auto ok = HttpGet("127.0.0.1", server_->port(), "/healthz");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->status, 200);
  health_ = MetricsServer::Health::kStalled;
  auto stalled = HttpGet("127.0.0.1", server_->port(), "/healthz");
  ASSERT_TRUE(stalled.ok());
  EXPECT_EQ(stalled->status, 503);
  EXPECT_EQ(stalled->body, "stalled\n");
}

TEST_F(MetricsServerTest, HealthzAddsTheHealthNoteLineWhenThereIsOne) {
  std::mutex note_mutex;
  std::string note;  // GUARDED_BY(note_mutex)
  MetricsServer::Endpoints endpoints = Endpoints();
  endpoints.health_note = [&] {
    std::lock_guard<std::mutex> lock(note_mutex);
    return note;
  };
  auto server = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), endpoints);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto plain = HttpGet("127.0.0.1", (*server)->port(), "/healthz");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->body, "ok\n");
  {
    std::lock_guard<std::mutex> lock(note_mutex);
    note = "stalled reads: sysfs (2)";
  }
  auto noted = HttpGet("127.0.0.1", (*server)->port(), "/healthz");
  ASSERT_TRUE(noted.ok());
  EXPECT_EQ(noted->status, 200);
  EXPECT_EQ(noted->body, "ok\nstalled reads: sysfs (2)\n");
  health_ = MetricsServer::Health::kStalled;
  auto stalled = HttpGet("127.0.0.1", (*server)->port(), "/healthz");
  ASSERT_TRUE(stalled.ok());
  EXPECT_EQ(stalled->status, 503);
  EXPECT_EQ(stalled->body, "stalled\nstalled reads: sysfs (2)\n");
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
  auto other = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), Endpoints(false));
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  for (const char* path : {"/api/v1/findings", "/api/v1/state"}) {
    auto response = HttpGet("127.0.0.1", (*other)->port(), path);
    ASSERT_TRUE(response.ok());
    EXPECT_EQ(response->status, 404) << path;
  }
}

TEST_F(MetricsServerTest, TheStateIsItsCallbacksDocumentOr503WhileThereIsNone) {
  auto none = HttpGet("127.0.0.1", server_->port(), "/api/v1/state");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->status, 503);
  SetFindings(std::make_shared<const std::string>("{}"));
  auto served = HttpGet("127.0.0.1", server_->port(), "/api/v1/state");
  ASSERT_TRUE(served.ok());
  EXPECT_EQ(served->status, 200);
  EXPECT_EQ(served->body, *state_);
}

TEST_F(MetricsServerTest, ASecondServerOnTheSamePortFailsWithAClearError) {
  auto second = MetricsServer::Start(
      *ParseListenAddress("127.0.0.1:" + std::to_string(server_->port())), Endpoints());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find("cannot listen"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
