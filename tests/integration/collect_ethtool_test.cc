// `rocewatch collect` records the real ethtool answers of a netdev (a veth pair in a namespace of
// the test's own): what the kernel answered becomes recordings, EOPNOTSUPP becomes "unsupported",
// and the recordings read back as the kernel's answers.
#include <gtest/gtest.h>
#include <net/if.h>

#include "collect/support_bundle.h"
#include "ethtool/ioctl_driver_statistics_source.h"
#include "ethtool/libnl_ethtool_source.h"
#include "ethtool/recorded_ethtool_source.h"
#include "support/fake_file_system.h"
#include "support/golden.h"
#include "support/net_namespace.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

// Addresses are not what this test is about.
class NoNetdevs final : public NetdevReader {
 public:
  std::map<std::string, NetdevObservation> Read(const std::vector<std::string>& names) override {
    std::map<std::string, NetdevObservation> out;
    for (const std::string& name : names) out[name].state.name = name;
    return out;
  }
};

TEST(CollectEthtoolTest, RecordsWhatTheKernelAnsweredAndReadsItBack) {
  auto ns = NetNamespace::Create("col");
  if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
  ASSERT_TRUE((*ns)->AddVethPair("rnic0", "peer0").ok());
  IoctlDriverStatisticsSource statistics;
  LibnlEthtoolSource netlink;
  Status opened_statistics, opened_netlink;
  ASSERT_TRUE((*ns)
                  ->RunInside([&] {
                    opened_statistics = statistics.Open();
                    opened_netlink = netlink.Open();
                  })
                  .ok());
  ASSERT_TRUE(opened_statistics.ok() && opened_netlink.ok());

  // An RDMA device whose port netdev is the veth end.
  FakeFileSystem fs;
  fs.AddFile("/host/sys/class/infiniband/rxe0/node_guid", "0000:0000:0000:0001\n");
  fs.AddFile("/host/sys/class/infiniband/rxe0/device/net/rnic0/dev_port", "0\n");
  fs.AddFile("/host/sys/class/infiniband/rxe0/ports/1/state", "4: ACTIVE\n");
  const HostPaths paths = HostPaths::ForRoots("/host");
  EthtoolPoller poller(fs, paths.host_root, paths.sysfs_root, &statistics, &netlink);
  NoNetdevs netdevs;
  TempDir bundle;
  DirectoryBundleWriter writer(bundle.path());
  StatusOr<CollectSummary> summary =
      CollectSupportBundle(fs, paths, poller, netdevs, writer, CollectOptions{}, 1767225600);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_EQ(summary->netdevs, std::vector<std::string>{"rnic0"});

  int status = 0;
  const std::string dir = bundle.path() + "/rocewatch/ethtool/rnic0/";
  const std::string recorded = RunCommand("cat " + dir + "statistics", &status);
  unsigned peer_index = 0;
  ASSERT_TRUE((*ns)->RunInside([&] { peer_index = if_nametoindex("peer0"); }).ok());
  EXPECT_EQ(recorded.rfind("NIC statistics:\n", 0), 0u);
  EXPECT_NE(recorded.find("     peer_ifindex: " + std::to_string(peer_index) + "\n"),
            std::string::npos)
      << recorded;
  EXPECT_EQ(RunCommand("cat " + dir + "fec", &status), "unsupported\n");
  EXPECT_EQ(RunCommand("cat " + dir + "pause", &status), "unsupported\n");
  EXPECT_NE(RunCommand("cat " + dir + "link_state", &status).find("link: yes"), std::string::npos);
  RunCommand("test -d " + dir + "module", &status);
  EXPECT_NE(status, 0) << "veth has no module: nothing recorded";

  // Read back, the recording is the kernel's answer.
  PosixFileSystem disk;
  RecordedEthtoolSource replay(disk, bundle.path() + "/rocewatch/ethtool");
  StatusOr<std::optional<DriverStatistics>> live = statistics.ReadDriverStatistics("rnic0");
  StatusOr<std::optional<DriverStatistics>> back = replay.ReadDriverStatistics("rnic0");
  ASSERT_TRUE(live.ok() && *live && back.ok() && *back);
  ASSERT_EQ((*back)->counters.size(), (*live)->counters.size());
  for (size_t i = 0; i < (*live)->counters.size(); ++i)
    EXPECT_EQ((*back)->counters[i].first, (*live)->counters[i].first);
  StatusOr<std::optional<FecReading>> fec = replay.ReadFec("rnic0");
  ASSERT_TRUE(fec.ok());
  EXPECT_FALSE(*fec);
}

}  // namespace
}  // namespace rocewatch
