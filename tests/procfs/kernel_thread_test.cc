#include "procfs/kernel_thread.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace rocewatch {
namespace {

TEST(ProcessStatTest, ReadsParentAndFlagsAfterTheLastParenthesis) {
  std::optional<ProcessStat> stat =
      ParseProcessStat("812 (a) (b) c) S 1 812 812 0 -1 4194560 1200 0 0 0 3 1 0 0 20 0 3\n");
  ASSERT_TRUE(stat);
  EXPECT_EQ(stat->ppid, 1);
  EXPECT_EQ(stat->flags, 4194560u);
}

TEST(ProcessStatTest, MalformedLinesAreNotParsed) {
  EXPECT_FALSE(ParseProcessStat(""));
  EXPECT_FALSE(ParseProcessStat("812 (cut"));
  EXPECT_FALSE(ParseProcessStat("812 (a) S 1 2"));
  EXPECT_FALSE(ParseProcessStat("812 (a) S x 812 812 0 -1 4194560"));
}

TEST(KernelThreadTest, KthreaddItsChildrenAndFlaggedThreadsAreKernelThreads) {
  EXPECT_TRUE(IsKernelThreadStat(2, {0, 0x208040}));
  EXPECT_TRUE(IsKernelThreadStat(14, {2, 0x4208060}));
  EXPECT_TRUE(IsKernelThreadStat(900, {1, kProcessFlagKernelThread}));
  EXPECT_FALSE(IsKernelThreadStat(1, {0, 0x400100}));
  EXPECT_FALSE(IsKernelThreadStat(4100, {3911, 0x400000}));
}

TEST(KernelThreadTest, OnlyEsrchOnEnvironSaysKernelThreadByItself) {
  EXPECT_TRUE(IsKernelThreadEnvironError(Status::FromErrno(ESRCH, "/proc/3/environ")));
  EXPECT_FALSE(IsKernelThreadEnvironError(Status::FromErrno(EACCES, "/proc/3/environ")));
  EXPECT_FALSE(IsKernelThreadEnvironError(Status::Ok()));
}

}  // namespace
}  // namespace rocewatch
