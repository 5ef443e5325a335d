// A value the loop builds only when another thread asks and only after a change: the daemon's
// findings document and its exposition (core/on_demand.h). Asked from other threads while the loop
// runs on its own, as civetweb's threads ask the daemon's loop.

#include "core/on_demand.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "core/event_loop.h"

namespace rocewatch {
namespace {

class OnDemandTest : public ::testing::Test {
 protected:
  // "document <version_>", recording the thread that built it.
  std::string Build() {
    built_on_ = std::this_thread::get_id();
    return "document " + std::to_string(version_.load());
  }
  std::unique_ptr<OnDemand<std::string>> Make(Duration wait) {
    auto made = OnDemand<std::string>::Create(
        loop_, [this] { return Build(); }, wait, "the test's document");
    EXPECT_TRUE(made.ok()) << made.status().ToString();
    return made.ok() ? std::move(made).value() : nullptr;
  }
  static std::string TextOf(const std::shared_ptr<const std::string>& document) {
    return document ? *document : "(none)";
  }
  // Runs the loop on its own thread until StopLoop(); between two steps it stays busy while
  // SetBusy(true) (as in a poll that hangs in a read).
  void StartLoop() {
    loop_thread_ = std::thread([this] {
      loop_id_ = std::this_thread::get_id();
      while (!stop_.load()) {
        loop_.RunOnce(std::chrono::milliseconds(10));
        std::unique_lock<std::mutex> lock(busy_mutex_);
        held_ = busy_;
        busy_changed_.notify_all();
        busy_changed_.wait(lock, [this] { return !busy_; });
        held_ = false;
      }
    });
  }
  // Returns once the loop is held (busy) or free again.
  void SetBusy(bool busy) {
    std::unique_lock<std::mutex> lock(busy_mutex_);
    busy_ = busy;
    busy_changed_.notify_all();
    if (busy) busy_changed_.wait(lock, [this] { return held_; });
  }
  void StopLoop() {
    stop_.store(true);
    SetBusy(false);
    if (loop_thread_.joinable()) loop_thread_.join();
  }
  ~OnDemandTest() override { StopLoop(); }

  SystemClock clock_;
  EventLoop loop_{clock_};
  std::atomic<int> version_{1};
  std::thread::id built_on_;  // written on the loop thread, read after a Get() returned
  std::thread::id loop_id_;
  std::atomic<bool> stop_{false};
  std::mutex busy_mutex_;
  std::condition_variable busy_changed_;
  bool busy_ = false;  // GUARDED_BY(busy_mutex_)
  bool held_ = false;  // GUARDED_BY(busy_mutex_): the loop thread is waiting while busy
  std::thread loop_thread_;
};

TEST_F(OnDemandTest, BuiltOnTheLoopOnlyWhenAskedAndOnlyAfterAChange) {
  std::unique_ptr<OnDemand<std::string>> document = Make(std::chrono::seconds(30));
  ASSERT_NE(document, nullptr);
  StartLoop();
  document->MarkStale();
  document->MarkStale();
  EXPECT_EQ(document->builds(), 0u);  // changes alone build nothing
  EXPECT_EQ(TextOf(document->Get()), "document 1");
  EXPECT_EQ(built_on_, loop_id_);
  EXPECT_EQ(document->builds(), 1u);

  version_ = 2;  // not marked stale: the document built stays, and is not built again
  EXPECT_EQ(TextOf(document->Get()), "document 1");
  EXPECT_EQ(TextOf(document->Get()), "document 1");
  EXPECT_EQ(document->builds(), 1u);

  document->MarkStale();  // a change: the next request builds it once
  EXPECT_EQ(TextOf(document->Get()), "document 2");
  EXPECT_EQ(TextOf(document->Get()), "document 2");
  EXPECT_EQ(document->builds(), 2u);
  StopLoop();
}

TEST_F(OnDemandTest, ConcurrentRequestsAreAllAnsweredWithAWholeDocument) {
  std::unique_ptr<OnDemand<std::string>> document = Make(std::chrono::seconds(30));
  ASSERT_NE(document, nullptr);
  StartLoop();
  std::atomic<int> answered{0};
  std::vector<std::thread> readers;
  for (int i = 0; i < 4; ++i) {
    readers.emplace_back([&] {
      for (int n = 0; n < 25; ++n) {
        document->MarkStale();
        const std::string text = TextOf(document->Get());
        if (text.rfind("document ", 0) == 0) ++answered;
      }
    });
  }
  for (int n = 0; n < 50; ++n) version_ = n;  // changes while they read
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(answered.load(), 100);
  EXPECT_GE(document->builds(), 1u);
  EXPECT_LE(document->builds(), 100u);
  StopLoop();
}

// The loop is busy (a poll that hangs in a read): a request gets the last document built within
// its bound, never none and never one being built; once the loop is free it answers again.
TEST_F(OnDemandTest, ABusyLoopServesTheLastDocumentWithinTheBound) {
  std::unique_ptr<OnDemand<std::string>> document = Make(std::chrono::milliseconds(50));
  ASSERT_NE(document, nullptr);
  StartLoop();
  // The first document, however slow this machine is (each request waits only 50 ms).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (document->Get() == nullptr && std::chrono::steady_clock::now() < deadline) {
  }
  ASSERT_EQ(TextOf(document->Get()), "document 1");

  SetBusy(true);
  version_ = 2;
  document->MarkStale();
  const auto begin = std::chrono::steady_clock::now();
  EXPECT_EQ(TextOf(document->Get()), "document 1");
  const auto waited = std::chrono::steady_clock::now() - begin;
  EXPECT_GE(waited, std::chrono::milliseconds(50));
  EXPECT_LT(waited, std::chrono::seconds(5));
  SetBusy(false);
  while (TextOf(document->Get()) != "document 2" && std::chrono::steady_clock::now() < deadline) {
  }
  EXPECT_EQ(TextOf(document->Get()), "document 2");
  StopLoop();
}

TEST_F(OnDemandTest, NoLoopNoDocumentAndNoHang) {
  std::unique_ptr<OnDemand<std::string>> document = Make(std::chrono::milliseconds(20));
  ASSERT_NE(document, nullptr);
  EXPECT_EQ(document->Get(), nullptr);  // never built, no loop: none, after the bound
  loop_.RunOnce(Duration::zero());      // the loop answers the request left pending
  EXPECT_EQ(document->builds(), 1u);
  EXPECT_EQ(TextOf(document->Get()), "document 1");  // built by the step above
}

// A document type that can be neither copied nor moved (one that caches its compressed form, say)
// is made from what the build gives.
struct FrozenDocument {
  explicit FrozenDocument(std::string built) : text(std::move(built)) {}
  FrozenDocument(const FrozenDocument&) = delete;
  FrozenDocument& operator=(const FrozenDocument&) = delete;
  const std::string text;
};

TEST_F(OnDemandTest, AValueThatCannotMoveIsMadeFromWhatTheBuildGives) {
  auto made = OnDemand<FrozenDocument, std::string>::Create(
      loop_, [this] { return Build(); }, std::chrono::milliseconds(20), "the test's document");
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  std::unique_ptr<OnDemand<FrozenDocument, std::string>> document = std::move(made).value();
  EXPECT_EQ(document->Get(), nullptr);
  loop_.RunOnce(Duration::zero());
  std::shared_ptr<const FrozenDocument> built = document->Get();
  ASSERT_NE(built, nullptr);
  EXPECT_EQ(built->text, "document 1");
}

}  // namespace
}  // namespace rocewatch
