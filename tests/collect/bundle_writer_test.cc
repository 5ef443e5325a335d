#include "collect/bundle_writer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/temp_dir.h"

namespace rocewatch {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

mode_t ModeOf(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

// A local user prepares the place a bundle is written to, as the README's /tmp example invites.
class BundleWriterTest : public ::testing::Test {
 protected:
  BundleWriterTest() {
    victim_ = outside_.WriteFile("victim", "original\n");
    outside_.MakeDir("elsewhere");
  }
  TempDir place_, outside_;
  std::string victim_;
  const std::string bundle_ = place_.path() + "/bundle";
};

TEST_F(BundleWriterTest, AFreshBundleIsOwnerOnly) {
  DirectoryBundleWriter writer(bundle_);
  ASSERT_TRUE(writer.WriteFile("proc/4242/environ", "TOKEN=s3cret").ok());
  ASSERT_TRUE(writer.MakeDir("sys/class/infiniband/mlx5_0/device/net").ok());
  EXPECT_EQ(Slurp(bundle_ + "/proc/4242/environ"), "TOKEN=s3cret");
  EXPECT_EQ(ModeOf(bundle_), 0700u);
  EXPECT_EQ(ModeOf(bundle_ + "/proc"), 0700u);
  EXPECT_EQ(ModeOf(bundle_ + "/proc/4242"), 0700u);
  EXPECT_EQ(ModeOf(bundle_ + "/proc/4242/environ"), 0600u);
  EXPECT_EQ(ModeOf(bundle_ + "/sys/class/infiniband/mlx5_0/device/net"), 0700u);
}

TEST_F(BundleWriterTest, AnEmptyExistingDirectoryOfOursIsUsedAndMadeOwnerOnly) {
  fs::create_directory(bundle_);
  fs::permissions(bundle_, fs::perms::all);
  DirectoryBundleWriter writer(bundle_);
  ASSERT_TRUE(writer.Open().ok());
  EXPECT_EQ(ModeOf(bundle_), 0700u);
}

TEST_F(BundleWriterTest, ANonEmptyExistingDirectoryIsRefused) {
  place_.WriteFile("bundle/planted", "x");
  DirectoryBundleWriter writer(bundle_);
  Status opened = writer.Open();
  EXPECT_EQ(opened.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(opened.message().find("not empty"), std::string::npos) << opened.message();
  EXPECT_FALSE(writer.WriteFile("proc/1/comm", "x").ok());
}

TEST_F(BundleWriterTest, ABundleDirectoryThatIsALinkIsRefused) {
  fs::create_directory_symlink(outside_.path() + "/elsewhere", bundle_);
  DirectoryBundleWriter writer(bundle_);
  EXPECT_FALSE(writer.Open().ok());
  EXPECT_TRUE(fs::is_empty(outside_.path() + "/elsewhere"));
}

// Links planted below the root (as a race after the checks would plant them) are never written
// through: a link to a file outside, to a directory outside, a dangling one.
TEST_F(BundleWriterTest, LinksBelowTheRootAreNeverFollowed) {
  DirectoryBundleWriter writer(bundle_);
  ASSERT_TRUE(writer.Open().ok());
  fs::create_directories(bundle_ + "/proc/4242");
  fs::create_symlink(victim_, bundle_ + "/proc/4242/environ");
  fs::create_directory_symlink(outside_.path() + "/elsewhere", bundle_ + "/etc");
  fs::create_symlink(outside_.path() + "/created-by-dangling", bundle_ + "/proc/4242/comm");

  EXPECT_FALSE(writer.WriteFile("proc/4242/environ", "chosen bytes").ok());
  EXPECT_FALSE(writer.WriteFile("etc/NetworkManager/NetworkManager.conf", "chosen").ok());
  EXPECT_FALSE(writer.WriteFile("proc/4242/comm", "chosen").ok());
  EXPECT_FALSE(writer.MakeDir("etc/netplan").ok());

  EXPECT_EQ(Slurp(victim_), "original\n");
  EXPECT_TRUE(fs::is_empty(outside_.path() + "/elsewhere"));
  EXPECT_FALSE(fs::exists(outside_.path() + "/created-by-dangling"));
}

TEST_F(BundleWriterTest, ALinkItMakesIsStoredNotFollowed) {
  DirectoryBundleWriter writer(bundle_);
  ASSERT_TRUE(writer.MakeLink("sys/class/infiniband/mlx5_0", "../../devices/x/mlx5_0").ok());
  ASSERT_TRUE(writer.MakeLink("sys/class/infiniband/mlx5_0", "../../devices/y/mlx5_0").ok());
  EXPECT_EQ(fs::read_symlink(bundle_ + "/sys/class/infiniband/mlx5_0"), "../../devices/y/mlx5_0");
}

}  // namespace
}  // namespace rocewatch
