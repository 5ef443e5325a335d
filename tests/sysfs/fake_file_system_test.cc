#include "support/fake_file_system.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "support/fault_injecting_file_system.h"

namespace rocewatch {
namespace {

TEST(FakeFileSystemTest, FilesDirectoriesAndLinks) {
  FakeFileSystem fs;
  fs.AddFile("/sys/class/infiniband/mlx5_10/fw_ver", "28.39.1002\n");
  fs.AddFile("/sys/class/infiniband/mlx5_2/fw_ver", "28.39.1002\n");
  fs.AddLink("/sys/class/infiniband/mlx5_2/device", "../../../0000:18:00.0");
  EXPECT_EQ(*fs.ReadFile("/sys/class/infiniband/mlx5_2//fw_ver/", 5), "28.39");
  EXPECT_EQ(*fs.ListDir("/sys/class/infiniband"), (std::vector<std::string>{"mlx5_2", "mlx5_10"}));
  EXPECT_EQ(*fs.ListDir("/sys/class/infiniband/mlx5_2"),
            (std::vector<std::string>{"device", "fw_ver"}));
  EXPECT_EQ(*fs.ReadLink("/sys/class/infiniband/mlx5_2/device"), "../../../0000:18:00.0");
  EXPECT_TRUE(fs.IsDirectory("/sys/class"));
  EXPECT_FALSE(fs.IsDirectory("/sys/class/infiniband/mlx5_2/fw_ver"));
  EXPECT_EQ(fs.ReadFile("/sys/class", 10).status().sys_errno(), EISDIR);
  EXPECT_EQ(fs.ReadFile("/sys/nothing", 10).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(fs.ListDir("/sys/class/infiniband/mlx5_2/fw_ver").status().sys_errno(), ENOTDIR);
}

TEST(FakeFileSystemTest, FailedReadsAreRecordedAndCarryTheErrno) {
  FakeFileSystem fs;
  fs.AddFile("/p/gid_attrs/types/2", "RoCE v2\n");
  fs.FailReads("/p/gid_attrs/types/2", EINVAL);
  auto read = fs.ReadFile("/p/gid_attrs/types/2", 100);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().sys_errno(), EINVAL);
  EXPECT_EQ(fs.files_read(), std::vector<std::string>{"/p/gid_attrs/types/2"});
  fs.ClearFailures();
  EXPECT_TRUE(fs.ReadFile("/p/gid_attrs/types/2", 100).ok());
  EXPECT_EQ(fs.ReadCount("/p/gid_attrs/types/2"), 2u);
}

TEST(FakeFileSystemTest, RemoveTakesEverythingBelow) {
  FakeFileSystem fs;
  fs.AddFile("/sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
  fs.AddFile("/sys/class/infiniband/mlx5_01/fw_ver", "1\n");
  fs.Remove("/sys/class/infiniband/mlx5_0");
  EXPECT_FALSE(fs.IsDirectory("/sys/class/infiniband/mlx5_0"));
  EXPECT_EQ(*fs.ListDir("/sys/class/infiniband"), std::vector<std::string>{"mlx5_01"});
}

TEST(FaultInjectingFileSystemTest, FailsPathsAndPrefixesAndForwardsTheRest) {
  FakeFileSystem base;
  base.AddFile("/sys/class/infiniband/mlx5_0/fw_ver", "1\n");
  base.AddFile("/sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
  base.AddFile("/sys/class/infiniband/mlx5_00/fw_ver", "2\n");
  FaultInjectingFileSystem fs(&base);
  fs.FailPrefix("/sys/class/infiniband/mlx5_0", ENOENT);
  fs.FailPath("/sys/class/infiniband/mlx5_00/fw_ver", EIO);
  EXPECT_EQ(fs.ReadFile("/sys/class/infiniband/mlx5_0/ports/1/state", 100).status().code(),
            StatusCode::kNotFound);
  EXPECT_FALSE(fs.IsDirectory("/sys/class/infiniband/mlx5_0"));
  EXPECT_EQ(fs.ReadFile("/sys/class/infiniband/mlx5_00/fw_ver", 100).status().sys_errno(), EIO);
  EXPECT_EQ(fs.ListDir("/sys/class/infiniband")->size(), 2u);  // the prefix is not the parent
  EXPECT_EQ(fs.files_read().size(), 2u);
  fs.ClearFailures();
  EXPECT_EQ(*fs.ReadFile("/sys/class/infiniband/mlx5_00/fw_ver", 100), "2\n");
}

}  // namespace
}  // namespace rocewatch
