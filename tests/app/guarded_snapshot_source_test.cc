// GuardedSnapshotSource: a poll whose read never returns does not hold the caller past its
// deadline; the stuck read is named and skipped by the next reading thread, the rest is read, and
// the thread given up on finishes once its read returns. The fake file system blocks a chosen path
// until the test releases it (conditions, no sleeps in what is tested).
#include "daemon/guarded_snapshot_source.h"

#include <gtest/gtest.h>

#include "support/blocking_file_system.h"
#include "support/fake_file_system.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;

// Reads every file of /node, each one a device named by its content; a failed read is counted.
class FileListSource final : public SnapshotSource {
 public:
  explicit FileListSource(const FileSystem& fs) : fs_(fs) {}
  StatusOr<NodeSnapshot> Take() override {
    NodeSnapshot snapshot;
    auto names = fs_.ListDir("/node");
    if (!names.ok()) return names.status();
    for (const std::string& name : *names) {
      auto content = fs_.ReadFile("/node/" + name, 64);
      if (content.ok()) {
        snapshot.devices.emplace_back();
        snapshot.devices.back().name = *content;
      } else {
        ++snapshot.read_errors["sysfs"];
      }
    }
    return snapshot;
  }
  const char* gid_source_name() const override { return "sysfs"; }

 private:
  const FileSystem& fs_;
};

std::vector<std::string> DeviceNames(const NodeSnapshot& snapshot) {
  std::vector<std::string> names;
  for (const Device& device : snapshot.devices) names.push_back(device.name);
  return names;
}

class GuardedSnapshotSourceTest : public ::testing::Test {
 protected:
  GuardedSnapshotSourceTest() {
    files_.AddFile("/node/1", "mlx5_0");
    files_.AddFile("/node/2", "mlx5_1");
    files_.AddFile("/node/3", "mlx5_2");
  }
  ~GuardedSnapshotSourceTest() override {
    fs_.Release();
    EXPECT_TRUE(fs_.AwaitNoneWaiting());
    // The threads given up on finish once their read returned: bounded, then the test fails.
    for (int i = 0; i < 3000 && guard_ && guard_->stuck().abandoned_threads() > 0; ++i)
      std::this_thread::sleep_for(milliseconds(10));
    if (guard_) {
      EXPECT_EQ(guard_->stuck().abandoned_threads(), 0);
    }
  }
  GuardedSnapshotSource& Guard(Duration deadline, int max_attempts = 3) {
    guard_ = std::make_unique<GuardedSnapshotSource>(
        fs_,
        [this](const GuardedSnapshotSource::Tools& tools) {
          ++built_;
          degraded_ = tools.degraded;
          return std::unique_ptr<SnapshotSource>(std::make_unique<FileListSource>(tools.fs));
        },
        "sysfs", ReadDeadlineOptions{.call_deadline = deadline, .max_attempts = max_attempts});
    return *guard_;
  }

  FakeFileSystem files_;
  BlockingFileSystem fs_{files_};
  std::atomic<int> built_{0};
  std::atomic<bool> degraded_{false};
  std::unique_ptr<GuardedSnapshotSource> guard_;
};

TEST_F(GuardedSnapshotSourceTest, APollThatReturnsIsTheSnapshot) {
  GuardedSnapshotSource& guard = Guard(std::chrono::minutes(1));
  NodeSnapshot snapshot;
  ASSERT_TRUE(guard.TakeInto(snapshot).ok());
  EXPECT_EQ(DeviceNames(snapshot), (std::vector<std::string>{"mlx5_0", "mlx5_1", "mlx5_2"}));
  ASSERT_TRUE(guard.TakeInto(snapshot).ok());
  EXPECT_EQ(built_, 1);  // one reading thread, poll after poll
  EXPECT_EQ(guard.stalls(), 0u);
  EXPECT_EQ(guard.stuck().size(), 0u);
}

TEST_F(GuardedSnapshotSourceTest, AStuckReadIsNamedSkippedAndTheRestIsRead) {
  fs_.Block("/node/2");
  GuardedSnapshotSource& guard = Guard(milliseconds(20));
  NodeSnapshot snapshot;
  ASSERT_TRUE(guard.TakeInto(snapshot).ok());
  EXPECT_EQ(DeviceNames(snapshot), (std::vector<std::string>{"mlx5_0", "mlx5_2"}));
  EXPECT_EQ(snapshot.read_errors["sysfs"], 1u);
  EXPECT_EQ(guard.stalls(), 1u);
  EXPECT_EQ(fs_.waiting(), 1);  // the first thread is still in the read
  ASSERT_EQ(guard.stuck().List().size(), 1u);
  EXPECT_EQ(guard.stuck().List()[0].what, "/node/2");
  EXPECT_EQ(guard.stuck().abandoned_threads(), 1);
  EXPECT_TRUE(degraded_);  // built while a thread was given up on
}

TEST_F(GuardedSnapshotSourceTest, LaterPollsSkipTheStuckReadWithoutWaitingAgain) {
  fs_.Block("/node/2");
  GuardedSnapshotSource& guard = Guard(milliseconds(20));
  NodeSnapshot snapshot;
  ASSERT_TRUE(guard.TakeInto(snapshot).ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(guard.TakeInto(snapshot).ok());
  EXPECT_EQ(guard.stalls(), 1u);
  EXPECT_EQ(built_, 2);
  EXPECT_EQ(DeviceNames(snapshot), (std::vector<std::string>{"mlx5_0", "mlx5_2"}));
}

TEST_F(GuardedSnapshotSourceTest, OnceTheStuckReadReturnsItIsReadAgainWithDescriptors) {
  fs_.Block("/node/2");
  GuardedSnapshotSource& guard = Guard(milliseconds(20));
  NodeSnapshot snapshot;
  ASSERT_TRUE(guard.TakeInto(snapshot).ok());
  fs_.Release();
  ASSERT_TRUE(fs_.AwaitNoneWaiting());
  for (int i = 0; i < 3000 && guard.stuck().abandoned_threads() > 0; ++i)
    std::this_thread::sleep_for(milliseconds(10));
  ASSERT_EQ(guard.stuck().abandoned_threads(), 0);
  EXPECT_EQ(guard.stuck().size(), 0u);
  ASSERT_TRUE(guard.TakeInto(snapshot).ok());
  EXPECT_EQ(DeviceNames(snapshot), (std::vector<std::string>{"mlx5_0", "mlx5_1", "mlx5_2"}));
  EXPECT_EQ(built_, 3);  // rebuilt without the degraded budget
  EXPECT_FALSE(degraded_);
}

TEST_F(GuardedSnapshotSourceTest, MoreStuckReadsThanAttemptsFailThePollNamingThem) {
  for (const char* path : {"/node/1", "/node/2", "/node/3"}) fs_.Block(path);
  GuardedSnapshotSource& guard = Guard(milliseconds(20), /*max_attempts=*/2);
  NodeSnapshot snapshot;
  Status taken = guard.TakeInto(snapshot);
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.code(), StatusCode::kUnavailable);
  EXPECT_NE(taken.message().find("/node/1"), std::string::npos) << taken.ToString();
  EXPECT_NE(taken.message().find("/node/2"), std::string::npos) << taken.ToString();
  EXPECT_EQ(guard.stuck().abandoned_threads(), 2);
}

TEST_F(GuardedSnapshotSourceTest, NoMoreThreadsAreGivenUpOnThanTheBound) {
  for (const char* path : {"/node/1", "/node/2", "/node/3"}) fs_.Block(path);
  guard_ = std::make_unique<GuardedSnapshotSource>(
      fs_,
      [](const GuardedSnapshotSource::Tools& tools) {
        return std::unique_ptr<SnapshotSource>(std::make_unique<FileListSource>(tools.fs));
      },
      "sysfs",
      ReadDeadlineOptions{
          .call_deadline = milliseconds(20), .max_attempts = 3, .max_abandoned = 1});
  NodeSnapshot snapshot;
  EXPECT_FALSE(guard_->TakeInto(snapshot).ok());
  EXPECT_FALSE(guard_->TakeInto(snapshot).ok());
  EXPECT_EQ(guard_->stuck().abandoned_threads(), 1);
  EXPECT_EQ(guard_->stalls(), 1u);
}

}  // namespace
}  // namespace rocewatch
