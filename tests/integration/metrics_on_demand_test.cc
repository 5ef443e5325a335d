// GET /metrics of the daemon (Daemon in-process, its loop on its own thread as in `rocewatch
// run`): the exposition is built and written on the loop when a scrape asks for it and only after
// a poll changed it; scrapes of one exposition get the same text, and a scraper that accepts gzip
// gets that text compressed.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "export/exposition_text.h"
#include "support/gunzip.h"
#include "support/http_client.h"
#include "support/in_process_daemon.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

class MetricsOnDemandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(root_, RailNode(2)).ok());
    ASSERT_TRUE(daemon_.Start().ok());
  }
  StatusOr<HttpResponse> Scrape(bool gzip = false) {
    return HttpExchange("127.0.0.1", daemon_.port(),
                        std::string("GET /metrics HTTP/1.0\r\n") +
                            (gzip ? "Accept-Encoding: gzip\r\n" : "") + "\r\n");
  }

  TempDir dir_;
  const std::string root_ = dir_.path() + "/sys";
  PosixFileSystem fs_;
  InProcessDaemon daemon_{fs_, root_};
};

TEST_F(MetricsOnDemandTest, BuiltOnlyWhenScrapedAndOnlyAfterAPoll) {
  const uint64_t at_start = daemon_.exposition_builds();
  ASSERT_TRUE(daemon_.Poll().ok());
  ASSERT_TRUE(daemon_.Poll().ok());
  EXPECT_EQ(daemon_.exposition_builds(), at_start);  // polls alone build nothing

  StatusOr<HttpResponse> first = Scrape();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(daemon_.exposition_builds(), at_start + 1);
  StatusOr<HttpResponse> again = Scrape();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->body, first->body);  // nothing changed: the same text
  EXPECT_EQ(daemon_.exposition_builds(), at_start + 1);

  // mlx5_0's address went and came back while a job held its GIDs: 2/3 -> 4/5.
  std::vector<FixtureDevice> node = RailNode(2);
  for (FixtureGid& gid : node[0].ports[0].gids)
    if (gid.index >= 2) gid.index += 2;
  ASSERT_TRUE(WriteSysfsFixture(root_, node).ok());
  ASSERT_TRUE(daemon_.Poll().ok());
  StatusOr<HttpResponse> moved = Scrape();
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(daemon_.exposition_builds(), at_start + 2);
  StatusOr<std::vector<ExposedSample>> samples = ParseExposition(moved->body);
  ASSERT_TRUE(samples.ok()) << samples.status().ToString();
  bool at_four = false;
  for (const ExposedSample* gid : SamplesNamed(*samples, "rocewatch_gid_info"))
    at_four |= gid->labels.at("device") == "mlx5_0" && gid->labels.at("index") == "4";
  EXPECT_TRUE(at_four) << "the moved GID at index 4 is not in the exposition";
}

TEST_F(MetricsOnDemandTest, AGzipScrapeGetsTheSameExpositionCompressed) {
  ASSERT_TRUE(daemon_.Poll().ok());
  StatusOr<HttpResponse> plain = Scrape();
  StatusOr<HttpResponse> gzipped = Scrape(/*gzip=*/true);
  ASSERT_TRUE(plain.ok() && gzipped.ok());
  EXPECT_NE(gzipped->head.find("Content-Encoding: gzip"), std::string::npos) << gzipped->head;
  EXPECT_LT(gzipped->body.size(), plain->body.size() / 4);
  EXPECT_EQ(Gunzip(gzipped->body), plain->body);
}

TEST_F(MetricsOnDemandTest, ConcurrentScrapesDuringPollsAllGetAWholeExposition) {
  std::atomic<int> whole{0};
  std::vector<std::thread> scrapers;
  for (int i = 0; i < 4; ++i) {
    scrapers.emplace_back([&, i] {
      for (int n = 0; n < 10; ++n) {
        StatusOr<HttpResponse> response = Scrape(/*gzip=*/i % 2 == 1);
        if (!response.ok() || response->status != 200) continue;
        const std::string text = i % 2 == 1 ? Gunzip(response->body) : response->body;
        if (ParseExposition(text).ok() && text.find("rocewatch_build_info") != std::string::npos)
          ++whole;
      }
    });
  }
  for (int n = 0; n < 5; ++n) EXPECT_TRUE(daemon_.Poll().ok());
  for (std::thread& scraper : scrapers) scraper.join();
  EXPECT_EQ(whole.load(), 40);
}

}  // namespace
}  // namespace rocewatch
