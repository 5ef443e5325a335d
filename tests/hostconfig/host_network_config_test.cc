#include "hostconfig/host_network_config.h"

#include <gtest/gtest.h>

#include "os/host_file_system.h"
#include "support/host_root_builder.h"

namespace rocewatch {
namespace {

constexpr char kMac[] = "b8:3f:d2:00:00:01";

class HostNetworkConfigTest : public ::testing::Test {
 protected:
  HostNetworkConfigTest() { host_.Netdev("ens1f0np0", 4, kMac); }
  NetdevConfig Read(const std::string& netdev = "ens1f0np0") {
    PosixFileSystem fs;
    HostPaths paths = host_.paths();
    config_ = ReadHostNetworkConfig(HostFileSystem(fs, paths), {netdev},
                                    ListProcesses(fs, paths.procfs_root));
    return config_.netdevs.at(netdev);
  }
  HostRootBuilder host_;
  HostNetworkConfig config_;
};

TEST_F(HostNetworkConfigTest, NetworkManagerRuntimeStateNamesTheManager) {
  host_.NetworkManagerManages(4);
  NetdevConfig c = Read();
  EXPECT_EQ(c.managed_by, NetdevManager::kNetworkManager);
  EXPECT_EQ(c.ifindex, 4);
  ASSERT_FALSE(c.evidence.empty());
  EXPECT_EQ(c.evidence[0],
            "/run/NetworkManager/devices/4: managed=true, connection-uuid="
            "5b0e9c1a-55aa-4b62-9d1e-3f4a1c2b9d01");
  EXPECT_FALSE(c.nm_ignore_carrier);
  EXPECT_NE(c.nm_ignore_carrier_evidence.find("no ignore-carrier for ens1f0np0"),
            std::string::npos);
  ASSERT_TRUE(config_.network_manager.has_value());
  EXPECT_EQ(config_.network_manager->pid, 812);
}

TEST_F(HostNetworkConfigTest, IgnoreCarrierFromMainOfAConfDropIn) {
  host_.NetworkManagerManages(4)
      .File("/etc/NetworkManager/NetworkManager.conf", "[main]\nplugins=keyfile\n")
      .File("/usr/lib/NetworkManager/conf.d/00-server.conf", "[main]\nignore-carrier=*\n");
  NetdevConfig c = Read();
  EXPECT_TRUE(c.nm_ignore_carrier);
  EXPECT_EQ(c.nm_ignore_carrier_evidence,
            "/usr/lib/NetworkManager/conf.d/00-server.conf:2 [main] ignore-carrier=*");
}

TEST_F(HostNetworkConfigTest, LaterConfFilesOverrideAndEditTheIgnoreCarrierList) {
  host_.NetworkManagerManages(4)
      .File("/etc/NetworkManager/NetworkManager.conf", "[main]\nignore-carrier=*\n")
      .File("/etc/NetworkManager/conf.d/50-rails.conf",
            "[main]\nignore-carrier=eth0\nignore-carrier+=interface-name:ens2*\n");
  NetdevConfig c = Read();
  EXPECT_FALSE(c.nm_ignore_carrier);
  EXPECT_EQ(c.nm_ignore_carrier_evidence,
            "/etc/NetworkManager/conf.d/50-rails.conf:3 [main] ignore-carrier=eth0,"
            "interface-name:ens2* does not match ens1f0np0");
}

TEST_F(HostNetworkConfigTest, IgnoreCarrierFromAMatchingDeviceSection) {
  host_.NetworkManagerManages(4).File(
      "/etc/NetworkManager/conf.d/rails.conf",
      "[device-other]\nmatch-device=interface-name:eth*\nignore-carrier=no\n"
      "[device-rails]\nmatch-device=mac:" +
          std::string(kMac) + "\nignore-carrier=yes\n");
  NetdevConfig c = Read();
  EXPECT_TRUE(c.nm_ignore_carrier);
  EXPECT_EQ(c.nm_ignore_carrier_evidence,
            "/etc/NetworkManager/conf.d/rails.conf:6 [device-rails] ignore-carrier=yes");
}

TEST_F(HostNetworkConfigTest, NetworkdRuntimeStateAndItsNetworkFileWithDropIns) {
  host_
      .NetworkdManages(4, "/run/systemd/network/10-netplan-ens1f0np0.network",
                       "[Match]\nName=ens1f0np0\n[Network]\nConfigureWithoutCarrier=no\n")
      .File("/etc/systemd/network/10-netplan-ens1f0np0.network.d/keep.conf",
            "[Network]\nKeepConfiguration=static\n")
      .File(
          "/run/systemd/netif/links/4",
          "ADMIN_STATE=configured\nNETWORK_FILE=/run/systemd/network/10-netplan-ens1f0np0.network\n"
          "NETWORK_FILE_DROPINS=\"/etc/systemd/network/10-netplan-ens1f0np0.network.d/"
          "keep.conf\"\n");
  NetdevConfig c = Read();
  EXPECT_EQ(c.managed_by, NetdevManager::kSystemdNetworkd);
  EXPECT_EQ(c.network_file, "/run/systemd/network/10-netplan-ens1f0np0.network");
  EXPECT_EQ(c.configure_without_carrier, "no");
  EXPECT_EQ(c.keep_configuration, "static");
  EXPECT_EQ(c.ignore_carrier_loss, std::nullopt);
  EXPECT_EQ(c.evidence[0].rfind("/run/systemd/netif/links/4: ADMIN_STATE=configured", 0), 0u);
}

TEST_F(HostNetworkConfigTest, NetworkdUnmanagedLinkIsNotNetworkds) {
  host_.NetworkdManages(4, "/etc/systemd/network/x.network", "[Network]\n", "unmanaged");
  EXPECT_EQ(Read().managed_by, NetdevManager::kUnknown);
}

TEST_F(HostNetworkConfigTest, IfupdownStanzaInASourcedFile) {
  host_
      .File("/etc/network/interfaces",
            "auto lo\niface lo inet loopback\n"
            "source /etc/network/interfaces.d/*\n")
      .File("/etc/network/interfaces.d/rails",
            "auto ens1f0np0\niface ens1f0np0 inet static\n"
            "  address 10.0.0.2/24\n")
      .NetworkManagerManages(4, /*managed=*/false);
  NetdevConfig c = Read();
  EXPECT_EQ(c.managed_by, NetdevManager::kIfupdown);
  ASSERT_EQ(c.evidence.size(), 2u);
  EXPECT_EQ(c.evidence[0], "/etc/network/interfaces.d/rails:2: iface ens1f0np0 inet static");
  EXPECT_EQ(c.evidence[1].rfind("/run/NetworkManager/devices/4: managed=false", 0), 0u);
}

TEST_F(HostNetworkConfigTest, ASourcedPathWithDotDotIsNotRead) {
  // Relative to /etc/network: "../rails.d/*" would be /etc/rails.d, inside the root here, but a
  // file of the host (or a bundle) could climb out the same way, so no ".." path is read.
  host_
      .File("/etc/network/interfaces",
            "auto lo\niface lo inet loopback\n"
            "source ../rails.d/*\n"
            "source-directory ../rails.d\n")
      .File("/etc/rails.d/rails", "auto ens1f0np0\niface ens1f0np0 inet static\n");
  NetdevConfig c = Read();
  EXPECT_EQ(c.managed_by, NetdevManager::kUnknown);
  for (const std::string& line : c.evidence) EXPECT_EQ(line.find("rails.d"), std::string::npos);
}

TEST_F(HostNetworkConfigTest, ConfigurationOnlyEvidenceWithoutRuntimeState) {
  host_.File("/etc/netplan/01-rails.yaml",
             "network:\n  renderer: NetworkManager\n  ethernets:\n    ens1f0np0:\n"
             "      addresses: [10.0.0.2/24]\n");
  NetdevConfig c = Read();
  EXPECT_EQ(c.managed_by, NetdevManager::kNetworkManager);
  EXPECT_EQ(c.evidence[0], "/etc/netplan/01-rails.yaml: renderer NetworkManager for ens1f0np0");

  host_.File("/etc/NetworkManager/system-connections/rail0.nmconnection",
             "[connection]\nid=rail0\ninterface-name=ens1f0np0\n");
  EXPECT_EQ(Read().evidence[0],
            "/etc/NetworkManager/system-connections/rail0.nmconnection: interface-name=ens1f0np0");
}

using Addresses = std::vector<ConfiguredAddress>;

TEST_F(HostNetworkConfigTest, NetworkdAddressesOfTheNetworkFileAndItsDropIns) {
  host_
      .NetworkdManages(4, "/etc/systemd/network/10-rail.network",
                       "[Match]\nName=ens1f0np0\n[Network]\nAddress=10.9.9.9/24\n"
                       "Address=\nAddress=10.0.0.2/24\n[Address]\nAddress=10.0.0.3/24\n")
      .File("/etc/systemd/network/10-rail.network.d/more.conf", "[Network]\nAddress=fd00::2/64\n")
      .File("/run/systemd/netif/links/4",
            "ADMIN_STATE=configured\nNETWORK_FILE=/etc/systemd/network/10-rail.network\n"
            "NETWORK_FILE_DROPINS=\"/etc/systemd/network/10-rail.network.d/more.conf\"\n");
  EXPECT_EQ(Read().configured_addresses,
            (Addresses{{"10.0.0.2/24", "/etc/systemd/network/10-rail.network:6"},
                       {"10.0.0.3/24", "/etc/systemd/network/10-rail.network:8"},
                       {"fd00::2/64", "/etc/systemd/network/10-rail.network.d/more.conf:2"}}))
      << "an empty Address= clears what came before it";
}

TEST_F(HostNetworkConfigTest, NetworkManagerAddressesOfTheOneProfileNamingTheDevice) {
  host_.NetworkManagerManages(4).File(
      "/etc/NetworkManager/system-connections/rail0.nmconnection",
      "[connection]\nid=rail0\ninterface-name=ens1f0np0\n[ipv4]\nmethod=manual\n"
      "address1=10.0.0.2/24,10.0.0.1\naddresses=10.0.0.4/24;10.0.0.5/24;\n[ipv6]\nmethod=ignore\n");
  EXPECT_EQ(
      Read().configured_addresses,
      (Addresses{{"10.0.0.2/24", "/etc/NetworkManager/system-connections/rail0.nmconnection:6"},
                 {"10.0.0.4/24", "/etc/NetworkManager/system-connections/rail0.nmconnection:7"},
                 {"10.0.0.5/24", "/etc/NetworkManager/system-connections/rail0.nmconnection:7"}}));
  // A second profile for the same device: which one is active is NetworkManager's choice.
  host_.File("/etc/NetworkManager/system-connections/rail0b.nmconnection",
             "[connection]\nid=rail0b\ninterface-name=ens1f0np0\n[ipv4]\naddress1=10.1.0.2/24\n");
  EXPECT_TRUE(Read().configured_addresses.empty());
}

TEST_F(HostNetworkConfigTest, IfupdownStaticAddressWithItsNetmask) {
  host_.File("/etc/network/interfaces",
             "auto ens1f0np0\niface ens1f0np0 inet static\n  address 10.0.0.2\n"
             "  netmask 255.255.255.0\n");
  NetdevConfig c = Read();
  EXPECT_EQ(c.managed_by, NetdevManager::kIfupdown);
  EXPECT_EQ(c.configured_addresses, (Addresses{{"10.0.0.2/24", "/etc/network/interfaces:3"}}));
  // DHCP gives no static address; a manager other than the deciding one is not asked.
  host_.File("/etc/network/interfaces", "iface ens1f0np0 inet dhcp\n  address 10.0.0.2/24\n");
  EXPECT_TRUE(Read().configured_addresses.empty());
}

TEST_F(HostNetworkConfigTest, NothingKnownIsUnknown) {
  NetdevConfig c = Read();
  EXPECT_EQ(c.managed_by, NetdevManager::kUnknown);
  EXPECT_STREQ(NetdevManagerLabel(c.managed_by), "unknown");
  EXPECT_EQ(c.keep_addr_on_down, 0);
  NetdevConfig absent = Read("ens9");  // no sysfs entry at all
  EXPECT_EQ(absent.ifindex, 0);
  EXPECT_EQ(absent.keep_addr_on_down, std::nullopt);
}

TEST_F(HostNetworkConfigTest, ManageForeignRoutingPolicyRulesFromADropIn) {
  Read();
  EXPECT_TRUE(config_.networkd_manages_foreign_rules);
  EXPECT_EQ(config_.manage_foreign_rules_evidence, "not set in networkd.conf: defaults to yes");
  host_.File("/etc/systemd/networkd.conf", "[Network]\nManageForeignRoutingPolicyRules=yes\n")
      .File("/etc/systemd/networkd.conf.d/rocewatch.conf",
            "[Network]\nManageForeignRoutingPolicyRules=no\n");
  Read();
  EXPECT_FALSE(config_.networkd_manages_foreign_rules);
  EXPECT_EQ(config_.manage_foreign_rules_evidence,
            "/etc/systemd/networkd.conf.d/rocewatch.conf:2 ManageForeignRoutingPolicyRules=no");
}

}  // namespace
}  // namespace rocewatch
