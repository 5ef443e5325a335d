// GuardedReader and its ReadingThread: reads run on a thread of their own; one stuck past the
// deadline is named and returns Unavailable without the caller waiting for it; its thread and
// state are given up on and released on that thread once the call returns; the next read gets a
// new thread and a new state; past the bound of given-up threads, reads are refused at once.
// Blocking is a condition the test releases: no sleeps in what is tested.
#include "os/guarded_reader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "support/gate.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;

// The thread the last state was destroyed on (states given up on end on their own threads).
struct LastDestroyed {
  std::mutex mutex;
  std::thread::id thread;  // GUARDED_BY(mutex)
};

struct CountingState {
  CountingState(CallWatch& call_watch, std::atomic<int>* alive_states, LastDestroyed* destroyed)
      : watch(call_watch), alive(alive_states), last_destroyed(destroyed) {
    ++*alive;
  }
  ~CountingState() {
    {
      std::lock_guard<std::mutex> lock(last_destroyed->mutex);
      last_destroyed->thread = std::this_thread::get_id();
    }
    --*alive;
  }
  CallWatch& watch;
  std::atomic<int>* alive;
  LastDestroyed* last_destroyed;
  int reads = 0;
  std::thread::id read_on;
};

class GuardedReaderTest : public ::testing::Test {
 protected:
  GuardedReaderOptions Options(int max_abandoned = 8) {
    GuardedReaderOptions options;
    options.stuck = stuck_;
    options.deadline = milliseconds(20);
    options.max_abandoned = max_abandoned;
    return options;
  }
  GuardedReader<CountingState>::MakeState Make() {
    return [this](CallWatch& watch) {
      ++made_;
      return std::make_shared<CountingState>(watch, &alive_, &destroyed_);
    };
  }
  // A read bracketed as (source, what) that waits at the gate.
  static GuardedReader<CountingState>::Read Stuck(std::shared_ptr<Gate> gate, std::string what) {
    return [gate, what](CountingState& state) {
      if (!state.watch.Begin("procfs", what)) return;
      gate->Wait();
      state.watch.End();
    };
  }

  std::shared_ptr<StuckCalls> stuck_ = std::make_shared<StuckCalls>();
  std::atomic<int> alive_{0};
  LastDestroyed destroyed_;
  int made_ = 0;
};

TEST_F(GuardedReaderTest, AReadRunsOnAThreadOfItsOwnAndKeepsItsState) {
  GuardedReader<CountingState> reader(Options(), Make());
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(reader
                    .Run([](CountingState& s) {
                      ++s.reads;
                      s.read_on = std::this_thread::get_id();
                    })
                    .ok());
  ASSERT_NE(reader.state(), nullptr);
  EXPECT_EQ(reader.state()->reads, 3);
  EXPECT_NE(reader.state()->read_on, std::this_thread::get_id());
  EXPECT_EQ(made_, 1);
  const std::thread::id reading_thread = reader.state()->read_on;
  reader.Stop();
  EXPECT_EQ(reader.state(), nullptr);
  EXPECT_EQ(alive_, 0);
  std::lock_guard<std::mutex> lock(destroyed_.mutex);
  EXPECT_EQ(destroyed_.thread, reading_thread);  // the state is released on its thread
}

TEST_F(GuardedReaderTest, AStuckReadIsNamedGivenUpOnAndTheNextReadGetsANewThread) {
  auto gate = std::make_shared<Gate>();
  GuardedReader<CountingState> reader(Options(), Make());
  std::optional<StuckCalls::Call> taken;
  Status ran = reader.Run(Stuck(gate, "/proc/42/maps"), &taken);
  EXPECT_EQ(ran.code(), StatusCode::kUnavailable);
  EXPECT_NE(ran.message().find("/proc/42/maps"), std::string::npos);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->source, "procfs");
  EXPECT_EQ(taken->what, "/proc/42/maps");
  EXPECT_TRUE(stuck_->Contains("/proc/42/maps"));
  EXPECT_EQ(stuck_->abandoned_threads(), 1);
  EXPECT_EQ(reader.stalls(), 1u);
  EXPECT_EQ(reader.state(), nullptr);
  EXPECT_EQ(alive_, 1);  // kept by the thread given up on

  // A new thread and state; the stuck call is refused there at once, other calls are made.
  bool refused = false;
  ASSERT_TRUE(reader
                  .Run([&refused](CountingState& s) {
                    refused = !s.watch.Begin("procfs", "/proc/42/maps");
                    ++s.reads;
                  })
                  .ok());
  EXPECT_TRUE(refused);
  EXPECT_EQ(made_, 2);
  EXPECT_EQ(reader.state()->reads, 1);

  gate->Open();  // the stuck call returns: its thread ends and releases its state
  EXPECT_TRUE(Eventually([&] { return stuck_->abandoned_threads() == 0 && alive_ == 1; }));
  EXPECT_FALSE(stuck_->Contains("/proc/42/maps"));
}

TEST_F(GuardedReaderTest, PastTheBoundOfGivenUpThreadsReadsAreRefusedWithoutBeingMade) {
  auto gate = std::make_shared<Gate>();
  GuardedReader<CountingState> reader(Options(/*max_abandoned=*/2), Make());
  EXPECT_FALSE(reader.Run(Stuck(gate, "a")).ok());
  EXPECT_FALSE(reader.Run(Stuck(gate, "b")).ok());
  ASSERT_EQ(stuck_->abandoned_threads(), 2);
  bool made = false;
  Status refused = reader.Run([&made](CountingState&) { made = true; });
  EXPECT_EQ(refused.code(), StatusCode::kUnavailable);
  EXPECT_FALSE(made);
  EXPECT_EQ(made_, 2);
  gate->Open();
  EXPECT_TRUE(Eventually([&] { return stuck_->abandoned_threads() == 0; }));
  EXPECT_TRUE(reader.Run([&made](CountingState&) { made = true; }).ok());
  EXPECT_TRUE(made);
}

TEST_F(GuardedReaderTest, DestroyingTheReaderDoesNotWaitOnAStuckCall) {
  auto gate = std::make_shared<Gate>();
  {
    GuardedReader<CountingState> reader(Options(), Make());
    EXPECT_FALSE(reader.Run(Stuck(gate, "/sys/class/net/eth0/mtu")).ok());
  }  // the stuck thread was detached: nothing here waits for it
  EXPECT_EQ(stuck_->abandoned_threads(), 1);
  gate->Open();
  EXPECT_TRUE(Eventually([&] { return stuck_->abandoned_threads() == 0 && alive_ == 0; }));
}

TEST_F(GuardedReaderTest, ASlowReadThatMakesProgressIsWaitedFor) {
  GuardedReaderOptions options = Options();
  options.deadline = milliseconds(100);
  GuardedReader<CountingState> reader(options, Make());
  // Many calls, each quick, taking together several deadlines: never taken as stuck.
  Status ran = reader.Run([](CountingState& s) {
    const auto until = std::chrono::steady_clock::now() + milliseconds(500);
    while (std::chrono::steady_clock::now() < until) {
      if (!s.watch.Begin("sysfs", "/sys/x")) return;
      s.watch.End();
      ++s.reads;
    }
  });
  EXPECT_TRUE(ran.ok());
  EXPECT_GT(reader.state()->reads, 10);
  EXPECT_EQ(reader.stalls(), 0u);
}

}  // namespace
}  // namespace rocewatch
