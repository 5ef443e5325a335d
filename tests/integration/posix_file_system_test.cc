#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <thread>

#include "os/file_system.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

const PosixFileSystem kReadToEndFs;
const PosixFileSystem kStopAtShortReadFs(PosixFileSystem::Options{.stop_at_short_read = true});
const FileSystem& kReadToEnd = kReadToEndFs;
const FileSystem& kStopAtShortRead = kStopAtShortReadFs;

TEST(PosixFileSystemTest, RegularFilesReadWholeEitherWayUpToTheBound) {
  TempDir dir;
  const std::string small = dir.WriteFile("small", "ACTIVE\n");
  const std::string big = dir.WriteFile("big", std::string(10'000, 'x'));  // several full reads
  for (const FileSystem* fs : {&kReadToEnd, &kStopAtShortRead}) {
    EXPECT_EQ(fs->ReadFile(small).value(), "ACTIVE\n");
    EXPECT_EQ(fs->ReadFile(big).value().size(), 10'000u);
    EXPECT_EQ(fs->ReadFile(big, 5'000).value().size(), 5'000u);
    EXPECT_EQ(fs->ReadFile(dir.WriteFile("empty", "")).value(), "");
  }
}

TEST(PosixFileSystemTest, ErrorsCarryTheErrno) {
  TempDir dir;
  auto missing = kStopAtShortRead.ReadFile(dir.path() + "/missing");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().sys_errno(), ENOENT);
  auto directory = kStopAtShortRead.ReadFile(dir.path());  // open succeeds, read fails
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().sys_errno(), EISDIR);
  EXPECT_NE(directory.status().message().find(dir.path()), std::string::npos);
}

// A FIFO reads short while its writer is still writing: the one kind of file where the two modes
// differ, which shows that the option does what it says (and why it is not for such files).
TEST(PosixFileSystemTest, StopAtShortReadReturnsAfterTheFirstShortRead) {
  TempDir dir;
  for (bool stop : {false, true}) {
    const std::string fifo = dir.path() + (stop ? "/fifo_stop" : "/fifo_all");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
      int fd = open(fifo.c_str(), O_WRONLY);
      ASSERT_GE(fd, 0);
      ASSERT_EQ(write(fd, "first", 5), 5);
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      (void)!write(fd, "second", 6);  // EPIPE once a stopping reader has closed: fine
      close(fd);
    });
    signal(SIGPIPE, SIG_IGN);
    auto content = (stop ? &kStopAtShortRead : &kReadToEnd)->ReadFile(fifo);
    writer.join();
    ASSERT_TRUE(content.ok()) << content.status().ToString();
    EXPECT_EQ(*content, stop ? "first" : "firstsecond");
  }
}

}  // namespace
}  // namespace rocewatch
