#include "os/beneath_path.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "support/temp_dir.h"

namespace rocewatch {
namespace {

// Each case runs with the kernel's openat2 and with the user-space walk of older kernels.
class BeneathPathTest : public ::testing::TestWithParam<BeneathResolver> {
 protected:
  BeneathPathTest() {
    root_ = outside_.MakeDir("root");
    outside_.WriteFile("secret", "root:$6$hash:19000:0:99999:7:::\n");
    fd_ = ::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  }
  ~BeneathPathTest() override { ::close(fd_); }

  // The content read through OpenBeneath, or the error's message.
  std::string Read(const std::string& relative, BeneathLinks links = BeneathLinks::kFollowInside) {
    StatusOr<int> fd = OpenBeneath(fd_, relative, O_RDONLY, links, 0, GetParam());
    if (!fd.ok()) {
      last_error_ = fd.status();
      return "error: " + fd.status().message();
    }
    char buffer[256];
    const ssize_t n = ::read(*fd, buffer, sizeof(buffer));
    ::close(*fd);
    return std::string(buffer, n > 0 ? static_cast<size_t>(n) : 0);
  }
  void Link(const std::string& target, const std::string& relative) {
    std::filesystem::create_symlink(target, root_ + "/" + relative);
  }

  TempDir outside_;
  std::string root_;
  int fd_ = -1;
  Status last_error_;
};

TEST_P(BeneathPathTest, RelativeLinksInsideTheRootResolveAsSysfsNeedsThem) {
  outside_.WriteFile("root/sys/devices/pci0000:00/0000:3b:00.0/infiniband/mlx5_0/fw_ver",
                     "28.39.1002\n");
  outside_.MakeDir("root/sys/class/infiniband");
  Link("../../devices/pci0000:00/0000:3b:00.0/infiniband/mlx5_0", "sys/class/infiniband/mlx5_0");
  EXPECT_EQ(Read("sys/class/infiniband/mlx5_0/fw_ver"), "28.39.1002\n");
}

TEST_P(BeneathPathTest, AnAbsoluteLinkIsRefusedNotFollowed) {
  outside_.MakeDir("root/sys/class/infiniband/mlx5_0");
  Link(outside_.path() + "/secret", "sys/class/infiniband/mlx5_0/fw_ver");
  const std::string read = Read("sys/class/infiniband/mlx5_0/fw_ver");
  EXPECT_EQ(read.find("root:"), std::string::npos) << read;
  EXPECT_NE(read.find("refused"), std::string::npos) << read;
  EXPECT_TRUE(IsRefusedPath(last_error_));
}

TEST_P(BeneathPathTest, ALinkClimbingAboveTheRootIsRefused) {
  outside_.MakeDir("root/etc/NetworkManager");
  Link("../../../secret", "etc/NetworkManager/NetworkManager.conf");
  EXPECT_NE(Read("etc/NetworkManager/NetworkManager.conf").find("refused"), std::string::npos);
  EXPECT_NE(Read("../secret").find("refused"), std::string::npos);
}

TEST_P(BeneathPathTest, ALinkedDirectoryOutsideIsRefused) {
  Link(outside_.path(), "proc");
  EXPECT_NE(Read("proc/secret").find("refused"), std::string::npos);
}

TEST_P(BeneathPathTest, ADanglingLinkIsAbsent) {
  Link("nowhere", "dangling");
  Read("dangling");
  EXPECT_EQ(last_error_.code(), StatusCode::kNotFound);
  EXPECT_FALSE(IsRefusedPath(last_error_));
}

TEST_P(BeneathPathTest, WithNoLinksFollowedEvenAnInsideLinkIsRefused) {
  outside_.WriteFile("root/real", "x");
  Link("real", "alias");
  EXPECT_EQ(Read("alias"), "x");
  EXPECT_NE(Read("alias", BeneathLinks::kNone).find("refused"), std::string::npos);
  EXPECT_TRUE(IsRefusedPath(last_error_));
}

TEST_P(BeneathPathTest, ALinkLoopEnds) {
  Link("b", "a");
  Link("a", "b");
  Read("a");
  EXPECT_FALSE(last_error_.ok());
}

INSTANTIATE_TEST_SUITE_P(Resolvers, BeneathPathTest,
                         ::testing::Values(BeneathResolver::kKernelIfAvailable,
                                           BeneathResolver::kUserSpace),
                         [](const auto& info) {
                           return info.param == BeneathResolver::kUserSpace ? "UserSpace"
                                                                            : "Kernel";
                         });

}  // namespace
}  // namespace rocewatch
