#include "support/example_node.h"

#include <gtest/gtest.h>

#include "diagnose/configuration_facts.h"
#include "os/host_file_system.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

// The bundled example's host side, read back through the same readers diagnose uses.
TEST(ExampleHostConfiguration, OneRailIsNetworkManagersAndAJobPinsIndexThree) {
  TempDir dir;
  ASSERT_TRUE(WriteExampleHostConfiguration(dir.path()).ok());
  // The sysfs side (written by WriteSysfsFixture in the real example): only ifindex matters here.
  for (int rail = 0; rail < 8; ++rail)
    dir.WriteFile("sys/class/net/ens" + std::to_string(rail + 1) + "f0np0/ifindex",
                  std::to_string(rail + 2) + "\n");
  PosixFileSystem fs;
  HostPaths paths = HostPaths::ForRoots(dir.path());
  std::vector<ProcessEntry> processes = ListProcesses(fs, paths.procfs_root);
  HostNetworkConfig host = ReadHostNetworkConfig(
      HostFileSystem(fs, paths), {"ens1f0np0", "ens4f0np0", "ens8f0np0"}, processes);
  EXPECT_EQ(host.Find("ens1f0np0")->managed_by, NetdevManager::kIfupdown);
  EXPECT_EQ(host.Find("ens8f0np0")->managed_by, NetdevManager::kIfupdown);
  EXPECT_EQ(host.Find("ens4f0np0")->managed_by, NetdevManager::kNetworkManager);
  EXPECT_FALSE(host.Find("ens4f0np0")->nm_ignore_carrier);
  ASSERT_TRUE(host.network_manager.has_value());

  NcclProcessScan scan = ScanNcclProcesses(fs, paths.procfs_root, processes);
  ASSERT_EQ(scan.processes.size(), 1u);
  EXPECT_EQ(scan.processes[0].pid, 4242);
  EXPECT_TRUE(scan.processes[0].uses_uverbs);
  EXPECT_EQ(scan.processes[0].settings.gid_index, 3);
  EXPECT_EQ(scan.processes[0].settings.timeout, 18);
}

}  // namespace
}  // namespace rocewatch
