#include "os/state_file_lock.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "os/file_system.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

TEST(StateFileLockTest, ASecondHolderIsRefusedWithTheFirstOnesPid) {
  TempDir dir;
  const std::string state = dir.path() + "/rocewatch/state.json";
  StatusOr<std::unique_ptr<StateFileLock>> first = StateFileLock::Acquire(state);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ((*first)->lock_path(), state + ".lock");

  // flock locks belong to the open file description: a second open conflicts even in-process.
  StatusOr<std::unique_ptr<StateFileLock>> second = StateFileLock::Acquire(state);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find("in use by another rocewatch (pid " +
                                           std::to_string(getpid()) + ","),
            std::string::npos)
      << second.status().message();
  EXPECT_NE(second.status().message().find(state), std::string::npos);
}

TEST(StateFileLockTest, TheLockIsFreeAgainOnceReleased) {
  TempDir dir;
  const std::string state = dir.path() + "/state.json";
  ASSERT_TRUE(StateFileLock::Acquire(state).ok());  // released at once
  EXPECT_TRUE(StateFileLock::Acquire(state).ok());
}

TEST(StateFileLockTest, AnImpossiblePathIsAnErrorNotACrash) {
  TempDir dir;
  dir.WriteFile("file", "x");
  StatusOr<std::unique_ptr<StateFileLock>> lock =
      StateFileLock::Acquire(dir.path() + "/file/state.json");
  ASSERT_FALSE(lock.ok());
  EXPECT_EQ(lock.status().sys_errno(), ENOTDIR);
}

}  // namespace
}  // namespace rocewatch
