#include "nccl/nccl_library.h"

#include <gtest/gtest.h>

#include "nccl/nccl_version.h"

namespace rocewatch {
namespace {

constexpr char kLibc[] =
    "7f1c2a000000-7f1c2a028000 r--p 00000000 fd:01 131 /usr/lib/x86_64-linux-gnu/libc.so.6\n";

TEST(NcclLibraryTest, InstalledBuildNamesItsVersion) {
  std::string maps = std::string(kLibc) +
                     "7f1c30000000-7f1c30200000 r-xp 00000000 fd:01 4242 "
                     "/usr/lib/x86_64-linux-gnu/libnccl.so.2.18.3\n";
  std::optional<NcclLibraryMapping> nccl = FindNcclLibrary(maps);
  ASSERT_TRUE(nccl.has_value());
  EXPECT_EQ(nccl->version, "2.18.3");
  EXPECT_EQ(nccl->path, "/usr/lib/x86_64-linux-gnu/libnccl.so.2.18.3");
  EXPECT_TRUE(nccl->site_packages.empty());
}

TEST(NcclLibraryTest, PipWheelPointsAtItsSitePackages) {
  std::string maps =
      "7f00-7f10 r-xp 00000000 00:2f 99 "
      "/opt/venv/lib/python3.11/site-packages/nvidia/nccl/lib/libnccl.so.2 (deleted)\n";
  std::optional<NcclLibraryMapping> nccl = FindNcclLibrary(maps);
  ASSERT_TRUE(nccl.has_value());
  EXPECT_TRUE(nccl->version.empty());
  EXPECT_EQ(nccl->site_packages, "/opt/venv/lib/python3.11/site-packages");
  EXPECT_EQ(NcclVersionFromDistInfo(
                {"numpy-1.26.0.dist-info", "nvidia", "nvidia_nccl_cu12-2.21.5.dist-info", "torch"}),
            "2.21.5");
}

TEST(NcclLibraryTest, NetPluginsStaticBuildsAndGarbageAreNotNccl) {
  EXPECT_FALSE(FindNcclLibrary(std::string(kLibc) +
                               "7f00-7f10 r-xp 00000000 fd:01 7 /usr/lib/libnccl-net.so\n"));
  EXPECT_FALSE(FindNcclLibrary(kLibc));  // statically linked: unknown, not searched for
  EXPECT_FALSE(FindNcclLibrary("\x00\xff garbage\n7f00 r-xp\n"));
  EXPECT_FALSE(NcclVersionFromDistInfo({"nvidia_nccl_cu12-garbage.dist-info", "nvidia_nccl"}));
}

TEST(NcclVersionTest, ParsesAndOrders) {
  EXPECT_EQ(ParseNcclVersion("2.21.5")->ToString(), "2.21.5");
  EXPECT_EQ(ParseNcclVersion("2.18.3-1")->ToString(), "2.18.3");
  EXPECT_EQ(ParseNcclVersion("2.18.3+cuda12.2")->ToString(), "2.18.3");
  EXPECT_FALSE(ParseNcclVersion("2.18"));
  EXPECT_FALSE(ParseNcclVersion("2.x.3"));
  EXPECT_FALSE(ParseNcclVersion("2.18.3abc"));
  EXPECT_LT(*ParseNcclVersion("2.9.9"), *ParseNcclVersion("2.14.3"));
}

TEST(NcclVersionTest, DefaultsFollowTheVersion) {
  EXPECT_EQ(NcclDefaultIbTimeout({2, 12, 12}), 14);
  EXPECT_EQ(NcclDefaultIbTimeout({2, 14, 3}), 18);
  EXPECT_EQ(NcclDefaultIbTimeout({2, 22, 3}), 18);
  EXPECT_EQ(NcclDefaultIbTimeout({2, 23, 4}), 20);
  EXPECT_EQ(NcclDefaultGidIndex({2, 20, 5}), 0);
  EXPECT_EQ(NcclDefaultGidIndex({2, 21, 5}), -1);
}

}  // namespace
}  // namespace rocewatch
