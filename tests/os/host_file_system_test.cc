// The host read by its own paths: each path under its root of HostPaths, and nothing that could
// name a file outside them.
#include "os/host_file_system.h"

#include <gtest/gtest.h>

#include "support/fake_file_system.h"

namespace rocewatch {
namespace {

TEST(HostFileSystemTest, EachHostPathIsReadUnderItsRoot) {
  FakeFileSystem fs;
  fs.AddFile("/host/etc/NetworkManager/NetworkManager.conf", "[main]\n");
  fs.AddFile("/host/run/NetworkManager/devices/7", "[device]\nmanaged=true\n");
  fs.AddFile("/host/proc/sys/net/ipv6/conf/all/keep_addr_on_down", "1\n");
  fs.AddFile("/fixture/sys/class/net/eth0/ifindex", "7\n");
  fs.AddFile("/host/usr/lib/NetworkManager/conf.d/10-rdma.conf", "[main]\n");
  fs.AddLink("/host/etc/netplan/50-rdma.yaml", "/usr/lib/netplan/50-rdma.yaml");
  const HostFileSystem host(fs, HostPaths::ForRoots("/host", "/fixture/sys"));

  EXPECT_EQ(*host.ReadFile("/etc/NetworkManager/NetworkManager.conf"), "[main]\n");
  EXPECT_EQ(*host.ReadFile("/run/NetworkManager/devices/7"), "[device]\nmanaged=true\n");
  EXPECT_EQ(*host.ReadFile("/proc/sys/net/ipv6/conf/all/keep_addr_on_down"), "1\n");
  EXPECT_EQ(*host.ReadFile("/sys/class/net/eth0/ifindex"), "7\n") << "--sysfs-root";
  EXPECT_EQ(*host.ListDir("/usr/lib/NetworkManager/conf.d"),
            (std::vector<std::string>{"10-rdma.conf"}));
  EXPECT_TRUE(host.IsDirectory("/etc/NetworkManager"));
  EXPECT_EQ(*host.ReadLink("/etc/netplan/50-rdma.yaml"), "/usr/lib/netplan/50-rdma.yaml")
      << "as stored: a host path, to be read through the host file system again";
  EXPECT_EQ(*host.Locate("/etcetera/x"), "/host/etcetera/x") << "/etc is a component, not a prefix";
  EXPECT_EQ(*host.Locate("/etc"), "/host/etc");

  const HostFileSystem live(fs, HostPaths::ForRoots("/"));
  EXPECT_EQ(*live.Locate("/etc/hostname"), "/etc/hostname");
  EXPECT_EQ(*live.Locate("/usr/lib/x"), "/usr/lib/x");
}

TEST(HostFileSystemTest, APathThatCouldLeaveTheRootsIsRefused) {
  FakeFileSystem fs;
  fs.AddFile("/etc/shadow", "root:x:\n");
  fs.AddDir("/host/etc/network");
  const HostFileSystem host(fs, HostPaths::ForRoots("/host"));
  for (const char* path :
       {"/etc/network/../../../etc/shadow", "etc/shadow", "", "/etc/network/..", "../etc/shadow"}) {
    StatusOr<std::string> read = host.ReadFile(path);
    ASSERT_FALSE(read.ok()) << path;
    EXPECT_EQ(read.status().code(), StatusCode::kInvalidArgument) << path;
    EXPECT_FALSE(host.ListDir(path).ok()) << path;
    EXPECT_FALSE(host.ReadLink(path).ok()) << path;
    EXPECT_FALSE(host.Open(path).ok()) << path;
    EXPECT_FALSE(host.IsDirectory(path)) << path;
  }
  // A "." component stays where it is; a file name that merely contains dots is a name.
  EXPECT_EQ(*host.Locate("/etc/./network"), "/host/etc/./network");
  fs.AddFile("/host/etc/network/..interfaces..", "auto lo\n");
  EXPECT_EQ(*host.ReadFile("/etc/network/..interfaces.."), "auto lo\n");
  // The refusal names the path without letting it drive a terminal.
  EXPECT_EQ(host.ReadFile("/etc/../\x1b[2J").status().message().find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
