// Temporary state files left by writers that died are removed at start; nothing else is.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "os/state_file_writer.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

TEST(StaleTemporaryFilesTest, OnlyRegularFilesOfDeadPidsMatchingThePatternAreRemoved) {
  TempDir dir;
  const std::string state = dir.path() + "/state.json";
  dir.WriteFile("state.json", "{}");
  dir.WriteFile("state.json.tmp.4242", "torn");            // dead writer: removed
  dir.WriteFile("state.json.tmp.777", "live writer");      // alive: kept
  dir.WriteFile("state.json.tmp.12x", "not a pid");        // kept
  dir.WriteFile("other.json.tmp.4243", "another file's");  // kept
  dir.WriteFile("outside", "target");
  ASSERT_EQ(
      ::symlink((dir.path() + "/outside").c_str(), (dir.path() + "/state.json.tmp.4244").c_str()),
      0);
  const std::string own = "state.json.tmp." + std::to_string(::getpid());
  dir.WriteFile(own, "this process's");
  std::vector<std::string> removed =
      RemoveStaleTemporaryFiles(state, [](pid_t pid) { return pid == 777; });
  EXPECT_EQ(removed, std::vector<std::string>{"state.json.tmp.4242"});
  EXPECT_FALSE(Exists(dir.path() + "/state.json.tmp.4242"));
  for (const char* kept : {"state.json", "state.json.tmp.777", "state.json.tmp.12x",
                           "other.json.tmp.4243", "outside", "state.json.tmp.4244"})
    EXPECT_TRUE(Exists(dir.path() + "/" + kept)) << kept;
  EXPECT_TRUE(Exists(dir.path() + "/" + own));
}

TEST(StaleTemporaryFilesTest, AMissingDirectoryRemovesNothing) {
  EXPECT_TRUE(RemoveStaleTemporaryFiles("/nonexistent/dir/state.json").empty());
}

TEST(StaleTemporaryFilesTest, ThisProcessExists) { EXPECT_TRUE(ProcessExists(::getpid())); }

}  // namespace
}  // namespace rocewatch
