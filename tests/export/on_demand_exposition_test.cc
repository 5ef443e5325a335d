// The exposition is built on the loop thread when a scrape asks for it and something changed, and
// a scrape never waits longer than its bound for a loop that does not answer.

#include "export/on_demand_exposition.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/clock.h"
#include "core/event_loop.h"

namespace rocewatch {
namespace {

class OnDemandExpositionTest : public ::testing::Test {
 protected:
  // One family with one gauge whose value is `version_` at build time.
  std::vector<prometheus::MetricFamily> Build() {
    built_on_ = std::this_thread::get_id();
    prometheus::MetricFamily family;
    family.name = "test_version";
    family.type = prometheus::MetricType::Gauge;
    family.metric.emplace_back();
    family.metric.back().gauge.value = version_.load();
    return {family};
  }
  static double ValueOf(const std::vector<prometheus::MetricFamily>& families) {
    return families.empty() ? -1 : families.at(0).metric.at(0).gauge.value;
  }
  std::unique_ptr<OnDemandExposition> Make(Duration wait) {
    auto made = OnDemandExposition::Create(
        loop_, [this] { return Build(); }, wait);
    EXPECT_TRUE(made.ok()) << made.status().ToString();
    return made.ok() ? std::move(made).value() : nullptr;
  }
  // Runs the loop on its own thread until StopLoop().
  void StartLoop() {
    loop_thread_ = std::thread([this] {
      loop_id_ = std::this_thread::get_id();
      while (!stop_.load()) loop_.RunOnce(std::chrono::milliseconds(10));
    });
  }
  void StopLoop() {
    stop_.store(true);
    if (loop_thread_.joinable()) loop_thread_.join();
  }
  ~OnDemandExpositionTest() override { StopLoop(); }

  SystemClock clock_;
  EventLoop loop_{clock_};
  std::atomic<int> version_{1};
  std::thread::id built_on_;  // written on the loop thread, read after a Collect returned it
  std::thread::id loop_id_;
  std::atomic<bool> stop_{false};
  std::thread loop_thread_;
};

TEST_F(OnDemandExpositionTest, AScrapeGetsFamiliesBuiltOnTheLoopOnlyWhenSomethingChanged) {
  std::unique_ptr<OnDemandExposition> exposition = Make(std::chrono::seconds(30));
  ASSERT_NE(exposition, nullptr);
  StartLoop();
  EXPECT_EQ(ValueOf(exposition->Collect()), 1);
  EXPECT_EQ(built_on_, loop_id_);
  version_ = 2;  // not marked stale: the families built stay
  EXPECT_EQ(ValueOf(exposition->Collect()), 1);
  EXPECT_EQ(exposition->builds(), 1u);
  exposition->MarkStale();
  EXPECT_EQ(ValueOf(exposition->Collect()), 2);
  EXPECT_EQ(ValueOf(exposition->Collect()), 2);
  EXPECT_EQ(exposition->builds(), 2u);
  StopLoop();
}

TEST_F(OnDemandExpositionTest, ConcurrentScrapesAreAllAnswered) {
  std::unique_ptr<OnDemandExposition> exposition = Make(std::chrono::seconds(30));
  ASSERT_NE(exposition, nullptr);
  StartLoop();
  std::vector<std::thread> scrapers;
  std::atomic<int> answered{0};
  for (int i = 0; i < 4; ++i) {
    scrapers.emplace_back([&] {
      for (int n = 0; n < 25; ++n) {
        exposition->MarkStale();
        if (ValueOf(exposition->Collect()) == 1) ++answered;
      }
    });
  }
  for (std::thread& scraper : scrapers) scraper.join();
  EXPECT_EQ(answered.load(), 100);
  EXPECT_GE(exposition->builds(), 1u);
  EXPECT_LE(exposition->builds(), 100u);
  StopLoop();
}

TEST_F(OnDemandExpositionTest, ALoopThatDoesNotAnswerServesTheLastFamiliesBuilt) {
  std::unique_ptr<OnDemandExposition> exposition = Make(std::chrono::milliseconds(20));
  ASSERT_NE(exposition, nullptr);
  EXPECT_TRUE(exposition->Collect().empty());  // never built, no loop: empty, not a hang
  loop_.RunOnce(Duration::zero());             // the loop answers the wake left pending
  EXPECT_EQ(exposition->builds(), 1u);
  version_ = 2;
  exposition->MarkStale();
  EXPECT_EQ(ValueOf(exposition->Collect()), 1);  // no loop: the last families after the wait
  loop_.RunOnce(Duration::zero());
  EXPECT_EQ(ValueOf(exposition->Collect()), 2);  // built by the step above, served after the wait
}

}  // namespace
}  // namespace rocewatch
