// One definition of "the RNIC netdevs", by scope.
#include "model/rnic_netdevs.h"

#include <gtest/gtest.h>

#include "support/node_builder.h"

namespace rocewatch {
namespace {

using Names = std::vector<std::string>;

// mlx5_0: RoCE on ens10f0np0, with a VLAN upper and a bond upper carrying GIDs (the bond sorts
// before the port's own netdev); mlx5_1: RoCE on ens2f0np0; mlx5_2: InfiniBand on ib0.
NodeSnapshot Node() {
  NodeSnapshot node;
  node.devices = {RoceDevice("mlx5_0", "ens10f0np0", {"10.0.0.2"}),
                  RoceDevice("mlx5_1", "ens2f0np0", {}), RoceDevice("mlx5_2", "ib0", {})};
  Port& bonded = node.devices[0].ports[0];
  bonded.own_netdevs = {"ens10f0np0"};
  bonded.gids.push_back(bonded.gids.back());
  bonded.gids.back().index = 8;
  bonded.gids.back().netdev = "ens10f0np0.100";
  bonded.gids.push_back(bonded.gids.back());
  bonded.gids.back().index = 9;
  bonded.gids.back().netdev = "bond0";
  bonded.netdevs = {"bond0", "ens10f0np0", "ens10f0np0.100"};
  Port& ib = node.devices[2].ports[0];
  ib.link_layer = "InfiniBand";
  ib.gids.clear();
  return node;
}

TEST(RnicNetdevsTest, EachScopeNamesItsNetdevsInNaturalOrder) {
  const NodeSnapshot node = Node();
  EXPECT_EQ(RnicNetdevs(node, RnicNetdevScope::kAll),
            (Names{"bond0", "ens2f0np0", "ens10f0np0", "ens10f0np0.100", "ib0"}));
  EXPECT_EQ(RnicNetdevs(node, RnicNetdevScope::kRoce),
            (Names{"bond0", "ens2f0np0", "ens10f0np0", "ens10f0np0.100"}));
  // The port's own netdev, not the bond that sorts before it; a port whose snapshot does not
  // tell its own netdevs apart stands by its first.
  EXPECT_EQ(RnicNetdevs(node, RnicNetdevScope::kPort), (Names{"ens2f0np0", "ens10f0np0", "ib0"}));
  EXPECT_EQ(RnicNetdevs(node, RnicNetdevScope::kGid),
            (Names{"bond0", "ens2f0np0", "ens10f0np0", "ens10f0np0.100"}));
  EXPECT_EQ(PrimaryNetdev(node.devices[0].ports[0]), "ens10f0np0");
}

// GID netdevs come in runs (one per address family and type); a netdev whose run is interrupted
// and resumed is still named once, and one that appears only after another run is named too.
TEST(RnicNetdevsTest, GidNetdevsInInterruptedRunsAreEachNamedOnce) {
  NodeSnapshot node;
  node.devices = {RoceDevice("mlx5_0", "eth0", {})};
  Port& port = node.devices[0].ports[0];
  port.netdevs.clear();
  port.own_netdevs.clear();
  const GidEntry first = port.gids.front();
  port.gids.clear();
  for (const char* netdev : {"eth0", "eth0", "eth0.7", "eth0.7", "eth0", "eth0.9"}) {
    port.gids.push_back(first);
    port.gids.back().index = static_cast<uint32_t>(port.gids.size() - 1);
    port.gids.back().netdev = netdev;
  }
  EXPECT_EQ(RnicNetdevs(node, RnicNetdevScope::kGid), (Names{"eth0", "eth0.7", "eth0.9"}));
}

TEST(RnicNetdevsTest, ANodeWithoutDevicesHasNone) {
  EXPECT_TRUE(RnicNetdevs(NodeSnapshot{}, RnicNetdevScope::kAll).empty());
}

}  // namespace
}  // namespace rocewatch
