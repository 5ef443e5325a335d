#include "diagnose/configuration_checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>

#include "diagnose/configuration_facts.h"
#include "model/rnic_netdevs.h"
#include "support/fault_injecting_file_system.h"
#include "support/host_root_builder.h"

namespace rocewatch {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

GidEntry Gid(uint32_t index, const std::string& address_or_gid, GidType type,
             const std::string& netdev) {
  std::optional<std::string> gid = GidOfAddress(address_or_gid);
  return {1, index, gid ? *gid : address_or_gid, type, netdev};
}

// A RoCE port as mlx5 shows it: default GIDs at 0/1, then one v1/v2 pair per IPv4 address from
// `first_ip_index` on.
Port RocePortOf(const std::string& netdev, const std::vector<std::string>& ipv4,
                uint32_t first_ip_index = 2) {
  Port port;
  port.number = 1;
  port.state = "ACTIVE";
  port.phys_state = "LinkUp";
  port.link_layer = "Ethernet";
  port.gid_table_len = 255;
  port.netdevs = {netdev};
  port.gids = {Gid(0, "fe80::ba3f:d2ff:fe00:1", GidType::kRoceV1, netdev),
               Gid(1, "fe80::ba3f:d2ff:fe00:1", GidType::kRoceV2, netdev)};
  uint32_t index = first_ip_index;
  for (const std::string& ip : ipv4) {
    port.gids.push_back(Gid(index++, ip, GidType::kRoceV1, netdev));
    port.gids.push_back(Gid(index++, ip, GidType::kRoceV2, netdev));
  }
  port.counters.hw_counters = {
      {"out_of_sequence", 0}, {"roce_adp_retrans", 0}, {"roce_adp_retrans_to", 0}};
  return port;
}

NetdevState Netdev(const std::string& name, const std::vector<std::string>& addresses) {
  NetdevState state;
  state.name = name;
  state.carrier = true;
  for (const std::string& a : addresses) {
    IpAddress ip;
    ip.family = a.find(':') == std::string::npos ? AddressFamily::kIpv4 : AddressFamily::kIpv6;
    ip.address = a.substr(0, a.find('/'));
    ip.prefix_len = static_cast<uint8_t>(std::stoi(a.substr(a.find('/') + 1)));
    ip.link_local = a.rfind("fe80", 0) == 0;
    state.addresses.push_back(ip);
  }
  return state;
}

// A two-rail node (mlx5_0 on ens1f0np0, mlx5_1 on ens2f0np0), healthy: each rail's RoCE v2
// IPv4 GID at index 3, ifupdown keeps the addresses. Tests change one thing and look at one
// check id.
// `from <src_cidr> oif <oif> lookup <table> prio <priority>` ("" for from all / no oif).
PolicyRule Rule(const std::string& src_cidr, const std::string& oif, uint32_t table,
                uint32_t priority) {
  PolicyRule rule;
  if (!src_cidr.empty()) {
    rule.src = src_cidr.substr(0, src_cidr.find('/'));
    rule.src_len = static_cast<uint8_t>(std::stoi(src_cidr.substr(src_cidr.find('/') + 1)));
  }
  rule.oifname = oif;
  rule.table = table;
  rule.priority = priority;
  return rule;
}

class ConfigurationChecksTest : public ::testing::Test {
 protected:
  ConfigurationChecksTest() {
    snapshot_.devices = {{"mlx5_0",
                          "28.39.1002",
                          "MT4129",
                          "b83f:d203:0000:0001",
                          {RocePortOf("ens1f0np0", {"10.0.0.2"})}},
                         {"mlx5_1",
                          "28.39.1002",
                          "MT4129",
                          "b83f:d203:0000:0002",
                          {RocePortOf("ens2f0np0", {"10.0.1.2"})}}};
    netdevs_ = {{"ens1f0np0", Netdev("ens1f0np0", {"10.0.0.2/24", "fe80::ba3f:d2ff:fe00:1/64"})},
                {"ens2f0np0", Netdev("ens2f0np0", {"10.0.1.2/24"})}};
    host_.Netdev("ens1f0np0", 4, "b8:3f:d2:00:00:01").Netdev("ens2f0np0", 5, "b8:3f:d2:00:00:02");
    host_.File("/etc/network/interfaces",
               "iface ens1f0np0 inet static\n  address 10.0.0.2/24\n"
               "iface ens2f0np0 inet static\n  address 10.0.1.2/24\n");
  }

  Port& Rail(int i) { return snapshot_.devices[static_cast<size_t>(i)].ports[0]; }

  // Reads the fixture host root, runs every check, keeps the findings of `check`.
  std::vector<Finding> Run(const char* check, const FileSystem* fs = nullptr) {
    PosixFileSystem posix;
    facts_ = ReadConfigurationFacts(fs ? *fs : posix, host_.paths(),
                                    RnicNetdevs(snapshot_, RnicNetdevScope::kRoce));
    ConfigurationCheckInput input;
    input.snapshot = &snapshot_;
    input.earlier = earlier_ ? &*earlier_ : nullptr;
    input.netdevs = &netdevs_;
    input.host = &facts_.host;
    input.nccl = &facts_.nccl;
    input.policy_rules = &rules_;
    std::vector<Finding> matching;
    for (Finding& f : RunConfigurationChecks(input))
      if (f.check == check) matching.push_back(std::move(f));
    return matching;
  }

  NodeSnapshot snapshot_;
  std::optional<NodeSnapshot> earlier_;
  std::map<std::string, NetdevState> netdevs_;
  std::vector<PolicyRule> rules_;
  HostRootBuilder host_;
  ConfigurationFacts facts_;
};

TEST_F(ConfigurationChecksTest, HealthyNodeHasNoFindingsAtAll) {
  PosixFileSystem fs;
  facts_ =
      ReadConfigurationFacts(fs, host_.paths(), RnicNetdevs(snapshot_, RnicNetdevScope::kRoce));
  ConfigurationCheckInput input{&snapshot_,   nullptr,      &netdevs_,
                                &facts_.host, &facts_.nccl, &rules_};
  EXPECT_EQ(RunConfigurationChecks(input), std::vector<Finding>{});
  EXPECT_EQ(facts_.host.Find("ens1f0np0")->managed_by, NetdevManager::kIfupdown);
}

// --- who configures the addresses ---

TEST_F(ConfigurationChecksTest, NetworkManagerWithoutIgnoreCarrierWarns) {
  host_.File("/etc/network/interfaces", "").NetworkManagerManages(4);
  std::vector<Finding> f = Run(check_id::kNetworkManagerWithoutIgnoreCarrier);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].subject, "ens1f0np0");
  EXPECT_THAT(f[0].message, HasSubstr("/run/NetworkManager/devices/4: managed=true"));
  EXPECT_THAT(f[0].message, HasSubstr("NetworkManager is running (pid 812)"));
  EXPECT_THAT(f[0].remedy, HasSubstr("ignore-carrier=interface-name:ens1f0np0"));
}

TEST_F(ConfigurationChecksTest, NetworkManagerWithIgnoreCarrierStaysQuiet) {
  host_.File("/etc/network/interfaces", "")
      .NetworkManagerManages(4)
      .NetworkManagerManages(5)
      .File("/etc/NetworkManager/conf.d/00-server.conf", "[main]\nignore-carrier=*\n");
  EXPECT_TRUE(Run(check_id::kNetworkManagerWithoutIgnoreCarrier).empty());
}

TEST_F(ConfigurationChecksTest, NetworkdWithoutIgnoreCarrierLossWarns) {
  host_.File("/etc/network/interfaces", "")
      .NetworkdManages(4, "/etc/systemd/network/10-rail0.network",
                       "[Match]\nName=ens1f0np0\n[Network]\nAddress=10.0.0.2/24\n");
  std::vector<Finding> f = Run(check_id::kNetworkdDropsAddressesOnCarrierLoss);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].subject, "ens1f0np0");
  EXPECT_THAT(f[0].message, HasSubstr("IgnoreCarrierLoss= not set (defaults to "
                                      "ConfigureWithoutCarrier=no)"));
  EXPECT_THAT(f[0].message, HasSubstr("/etc/systemd/network/10-rail0.network"));
}

TEST_F(ConfigurationChecksTest, NetworkdGraceShorterThanAFlapWarnsLongerStaysQuiet) {
  host_.File("/etc/network/interfaces", "")
      .NetworkdManages(4, "/etc/systemd/network/10-rail0.network",
                       "[Network]\nIgnoreCarrierLoss=3s\n");
  std::vector<Finding> f = Run(check_id::kNetworkdDropsAddressesOnCarrierLoss);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message, HasSubstr("IgnoreCarrierLoss=3s"));
  host_.File("/etc/systemd/network/10-rail0.network", "[Network]\nIgnoreCarrierLoss=30s\n");
  EXPECT_TRUE(Run(check_id::kNetworkdDropsAddressesOnCarrierLoss).empty());
}

TEST_F(ConfigurationChecksTest, NetworkdKeepingConfigurationStaysQuiet) {
  for (const char* network :
       {"[Network]\nIgnoreCarrierLoss=yes\n", "[Network]\nConfigureWithoutCarrier=yes\n",
        "[Network]\nKeepConfiguration=static\n", "[Network]\nKeepConfiguration=yes\n"}) {
    host_.File("/etc/network/interfaces", "")
        .NetworkdManages(4, "/etc/systemd/network/10-rail0.network", network);
    EXPECT_TRUE(Run(check_id::kNetworkdDropsAddressesOnCarrierLoss).empty()) << network;
  }
}

TEST_F(ConfigurationChecksTest, NetworkdManagingForeignRulesWhileRnicRulesExistWarns) {
  host_.Process(655, "systemd-network");
  rules_ = {Rule("10.0.0.2/32", "", 101, 32765), Rule("", "", 254, 32766)};
  std::vector<Finding> f = Run(check_id::kNetworkdManagesForeignPolicyRules);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].subject, "ens1f0np0");
  EXPECT_THAT(f[0].message, HasSubstr("from 10.0.0.2/32 lookup 101 prio 32765"));
  EXPECT_THAT(f[0].message, HasSubstr("not set in networkd.conf: defaults to yes"));
  EXPECT_THAT(f[0].message, Not(HasSubstr("32766")));
}

TEST_F(ConfigurationChecksTest, ForeignRulesStayQuietWhenNetworkdLeavesThemAlone) {
  host_.Process(655, "systemd-network");
  rules_ = {Rule("", "ens2f0np0", 102, 32764)};
  host_.File("/etc/systemd/networkd.conf", "[Network]\nManageForeignRoutingPolicyRules=no\n");
  EXPECT_TRUE(Run(check_id::kNetworkdManagesForeignPolicyRules).empty());
  host_.File("/etc/systemd/networkd.conf", "");
  EXPECT_EQ(Run(check_id::kNetworkdManagesForeignPolicyRules).size(), 1u);
  rules_ = {Rule("192.168.0.5/32", "", 200, 100)};  // not an RNIC's
  EXPECT_TRUE(Run(check_id::kNetworkdManagesForeignPolicyRules).empty());
}

TEST_F(ConfigurationChecksTest, GlobalIpv6WithoutKeepAddrOnDownWarns) {
  netdevs_["ens2f0np0"] = Netdev("ens2f0np0", {"10.0.1.2/24", "fd00:1::2/64"});
  std::vector<Finding> f = Run(check_id::kIpv6FlushedOnLinkDown);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].subject, "ens2f0np0");
  EXPECT_THAT(f[0].message, HasSubstr("fd00:1::2/64"));
  EXPECT_THAT(f[0].message, HasSubstr("keep_addr_on_down=0 (all=0)"));
}

TEST_F(ConfigurationChecksTest, Ipv6KeptOnDownOrOnlyLinkLocalStaysQuiet) {
  // ens1f0np0 has only a link-local IPv6 address: nothing to lose.
  netdevs_["ens2f0np0"] = Netdev("ens2f0np0", {"10.0.1.2/24", "fd00:1::2/64"});
  host_.Netdev("ens2f0np0", 5, "b8:3f:d2:00:00:02", /*keep_addr_on_down=*/1);
  EXPECT_TRUE(Run(check_id::kIpv6FlushedOnLinkDown).empty());
  host_.Netdev("ens2f0np0", 5, "b8:3f:d2:00:00:02", 0)
      .File("/proc/sys/net/ipv6/conf/all/keep_addr_on_down", "1\n");
  EXPECT_TRUE(Run(check_id::kIpv6FlushedOnLinkDown).empty());
}

// --- NCCL settings of running jobs ---

TEST_F(ConfigurationChecksTest, PinnedGidIndexWithoutRoceV2GidIsCritical) {
  // Rail 1's GIDs moved up by two after a flap with references held: 3 is now empty.
  Rail(1).gids = RocePortOf("ens2f0np0", {"10.0.1.2"}, 4).gids;
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=3"}, true)
      .Process(4101, "python3", {"NCCL_IB_GID_INDEX=3"}, true);
  std::vector<Finding> f = Run(check_id::kNcclGidIndexWithoutRoceV2Gid);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kCritical);
  EXPECT_EQ(f[0].subject, "pids 4100 and 4101 (python3)");
  EXPECT_THAT(f[0].message, HasSubstr("mlx5_1/1 index 3 is empty (RoCE v2 IPv4 GID at index 5)"));
  EXPECT_THAT(f[0].message, Not(HasSubstr("mlx5_0/1")));
}

TEST_F(ConfigurationChecksTest, APinnedIndexWhoseSlotCouldNotBeReadIsNotJudged) {
  // gids/3 of rail 1 failed its read: its GID is unknown, not empty (read_failed says so).
  std::erase_if(Rail(1).gids, [](const GidEntry& g) { return g.index == 3; });
  Rail(1).unreadable_gid_slots = {3};
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=3"}, true);
  EXPECT_TRUE(Run(check_id::kNcclGidIndexWithoutRoceV2Gid).empty());
  EXPECT_TRUE(Run(check_id::kRoceV2Ipv4GidIndexDiffers).empty());
}

TEST_F(ConfigurationChecksTest, AWrongGidAtThePinWithSlotsUnknownSaysReadableOnly) {
  Rail(1).gids.resize(3);  // index 2 (RoCE v1) is the pin's; 3 failed its read
  Rail(1).unreadable_gid_slots = {3};
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=2"}, true);
  std::vector<Finding> f = Run(check_id::kNcclGidIndexWithoutRoceV2Gid);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message, HasSubstr("mlx5_1/1 index 2 holds roce_v1 10.0.1.2 on ens2f0np0 and "
                                      "no readable slot of the port holds a RoCE v2 IPv4 GID"));
}

TEST_F(ConfigurationChecksTest, PinnedGidIndexFindingNamesTheSlurmJob) {
  Rail(1).gids = RocePortOf("ens2f0np0", {"10.0.1.2"}, 4).gids;
  host_.Process(4100, "python3", {"SLURM_JOB_ID=8812", "NCCL_IB_GID_INDEX=3"}, true)
      .Process(4101, "python3", {"SLURM_JOB_ID=8812", "NCCL_IB_GID_INDEX=3"}, true)
      .Process(4200, "python3", {"SLURM_JOB_ID=8813", "NCCL_IB_GID_INDEX=3"}, true);
  std::vector<Finding> f = Run(check_id::kNcclGidIndexWithoutRoceV2Gid);
  ASSERT_EQ(f.size(), 2u);  // one finding per job
  EXPECT_EQ(f[0].subject, "job 8812: pids 4100 and 4101 (python3)");
  EXPECT_EQ(f[1].subject, "job 8813: pid 4200 (python3)");
}

TEST_F(ConfigurationChecksTest, PinnedGidIndexOfTheWrongTypeOrFamilyIsCritical) {
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=2"}, true)
      .Process(4200, "python3", {"NCCL_IB_GID_INDEX=3", "NCCL_IB_ADDR_FAMILY=AF_INET6"}, true);
  std::vector<Finding> f = Run(check_id::kNcclGidIndexWithoutRoceV2Gid);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_THAT(f[0].message, HasSubstr("mlx5_0/1 index 2 holds roce_v1 10.0.0.2 on ens1f0np0"));
  EXPECT_THAT(f[1].message, HasSubstr("the port has no RoCE v2 IPv6 GID"));
}

TEST_F(ConfigurationChecksTest, PinnedGidIndexHoldingTheGidStaysQuiet) {
  Rail(1).gids = RocePortOf("ens2f0np0", {"10.0.1.2"}, 4).gids;
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=3", "NCCL_IB_HCA==mlx5_0"}, true)
      .Process(4200, "python3", {"NCCL_IB_GID_INDEX=-1"}, true)
      .Process(4300, "python3", {"NCCL_IB_GID_INDEX=3", "NCCL_IB_HCA=^mlx5_1"}, true);
  EXPECT_TRUE(Run(check_id::kNcclGidIndexWithoutRoceV2Gid).empty());
}

TEST_F(ConfigurationChecksTest, SurvivableOutageFollowsTheFieldNotesFormula) {
  EXPECT_NEAR(ToSeconds(*NcclSurvivableOutage(20, 7)), 30.06, 0.01);
  EXPECT_NEAR(ToSeconds(*NcclSurvivableOutage(18, 7)), 7.52, 0.01);
  EXPECT_NEAR(ToSeconds(*NcclSurvivableOutage(14, 7)), 0.47, 0.01);
  EXPECT_EQ(NcclSurvivableOutage(0, 7), std::nullopt);  // 0: no timeout at all
}

TEST_F(ConfigurationChecksTest, NcclTimeoutBelowAFlapWarnsWithTheComputedBudget) {
  host_.Process(4100, "python3", {"NCCL_IB_TIMEOUT=14"}, true)
      .Process(4200, "python3", {"NCCL_IB_TIMEOUT=22", "NCCL_IB_RETRY_CNT=1"}, true);
  std::vector<Finding> f = Run(check_id::kNcclTimeoutBelowFlap);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].subject, "pid 4100 (python3)");
  EXPECT_THAT(f[0].message, HasSubstr("about 0.47 s without ACKs (4.096 us x 2^14 x 7)"));
  EXPECT_THAT(f[0].message,
              HasSubstr("NCCL_IB_TIMEOUT=14 and NCCL_IB_RETRY_CNT unset (default 7)"));
}

TEST_F(ConfigurationChecksTest, NcclTimeoutThatRidesOutAFlapStaysQuiet) {
  host_.Process(4100, "python3", {"NCCL_IB_TIMEOUT=20", "NCCL_IB_RETRY_CNT=7"}, true)
      .Process(4200, "python3", {"NCCL_IB_GID_INDEX=3"}, true);
  EXPECT_TRUE(Run(check_id::kNcclTimeoutBelowFlap).empty());
}

// The NCCL a process maps, as /proc/<pid>/maps shows an installed build.
std::string MapsWithNccl(const std::string& version) {
  return "7f1c30000000-7f1c30200000 r-xp 00000000 fd:01 4242 "
         "/usr/lib/x86_64-linux-gnu/libnccl.so." +
         version + "\n";
}

TEST_F(ConfigurationChecksTest, UnsetTimeoutUsesTheDefaultOfTheProcesssNcclVersion) {
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX=3"}, true)
      .File("/proc/4100/maps", MapsWithNccl("2.18.3"))
      .Process(4200, "torchrun", {}, true)
      .File("/proc/4200/maps", MapsWithNccl("2.12.12"));
  std::vector<Finding> f = Run(check_id::kNcclTimeoutBelowFlap);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_THAT(f[0].message, HasSubstr("NCCL 2.18.3, NCCL_IB_TIMEOUT unset (default 18 of NCCL "
                                      "2.18.3) and NCCL_IB_RETRY_CNT unset (default 7)"));
  EXPECT_THAT(f[0].message, HasSubstr("about 7.52 s without ACKs (4.096 us x 2^18 x 7)"));
  EXPECT_THAT(f[1].message, HasSubstr("about 0.47 s"));  // 14 before 2.14
  EXPECT_THAT(f[1].remedy, HasSubstr("NCCL_IB_TIMEOUT=20"));
}

TEST_F(ConfigurationChecksTest, UnsetTimeoutLongEnoughByDefaultIsInformation) {
  host_.Process(4100, "python3", {}, true).File("/proc/4100/maps", MapsWithNccl("2.23.4"));
  EXPECT_TRUE(Run(check_id::kNcclTimeoutBelowFlap).empty());
  std::vector<Finding> f = Run(check_id::kNcclTimeoutDefault);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kInfo);
  EXPECT_THAT(f[0].message, HasSubstr("about 30.06 s"));
  EXPECT_THAT(f[0].remedy, HasSubstr("explicitly"));
}

TEST_F(ConfigurationChecksTest, UnsetTimeoutOfAnUnknownNcclVersionWarnsWithEveryDefaultItMayGet) {
  host_
      .Process(4100, "python3", {}, true)  // statically linked NCCL: no libnccl in maps
      .Process(4200, "python3", {"NCCL_IB_RETRY_CNT=7"}, true)
      .Process(4300, "python3", {"NCCL_IB_TIMEOUT=22", "NCCL_IB_RETRY_CNT=7"}, true);
  std::vector<Finding> f = Run(check_id::kNcclTimeoutUnsetVersionUnknown);
  ASSERT_EQ(f.size(), 2u);  // 4300 set both: its budget is known
  EXPECT_TRUE(facts_.nccl.processes[0].nccl_version.empty());
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].subject, "pid 4100 (python3)");
  EXPECT_THAT(f[0].message, HasSubstr("14 (before 2.14): 0.47 s, 18 (2.14 through 2.22): 7.52 s "
                                      "and 20 (since 2.23): 30.06 s"));
  EXPECT_THAT(f[0].message, HasSubstr("with 14 and 18 one link flap of 10s kills"));
  EXPECT_THAT(f[1].message, HasSubstr("NCCL_IB_RETRY_CNT=7"));
  EXPECT_TRUE(Run(check_id::kNcclTimeoutBelowFlap).empty());  // not guessed as 20 any more
  EXPECT_TRUE(Run(check_id::kNcclTimeoutDefault).empty());
}

TEST_F(ConfigurationChecksTest, EmptyGidIndexIsNamedWithTheDefaultNcclUsesInstead) {
  host_.Process(4100, "python3", {"NCCL_IB_GID_INDEX="}, true)
      .Process(4200, "python3", {"NCCL_IB_GID_INDEX="}, true)
      .File("/proc/4200/maps", MapsWithNccl("2.18.3"))
      .Process(4300, "python3", {"NCCL_IB_GID_INDEX="}, true)
      .File("/proc/4300/maps", MapsWithNccl("2.23.4"));
  std::vector<Finding> f = Run(check_id::kNcclGidIndexEmpty);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_THAT(f[0].message, HasSubstr("version is unknown: NCCL before 2.21.5 then uses index 0 "
                                      "(the link-local GID"));
  EXPECT_THAT(f[1].message, HasSubstr("NCCL 2.18.3 then uses index 0"));
  EXPECT_THAT(f[2].message, HasSubstr("NCCL 2.23.4 then picks a GID per connection"));
  EXPECT_TRUE(Run(check_id::kNcclInvalidSetting).empty());  // NCCL accepts it as unset
  // Under 2.18.3 every QP uses index 0, the link-local RoCE v1 GID: the pinned-index check runs.
  std::vector<Finding> pinned = Run(check_id::kNcclGidIndexWithoutRoceV2Gid);
  ASSERT_EQ(pinned.size(), 1u);
  EXPECT_EQ(pinned[0].subject, "pid 4200 (python3)");
  EXPECT_THAT(pinned[0].message,
              HasSubstr("NCCL_IB_GID_INDEX= (empty: NCCL 2.18.3's default index 0) is pinned"));
}

TEST_F(ConfigurationChecksTest, NcclHcaNamingAbsentDevicesWarns) {
  host_.Process(4100, "python3", {"NCCL_IB_HCA==mlx5_0,mlx5_7,mlx5_1:2"}, true);
  std::vector<Finding> f = Run(check_id::kNcclHcaAbsentDevice);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message, HasSubstr("names mlx5_7 and mlx5_1:2 (no such port)"));
  EXPECT_THAT(f[0].message, HasSubstr("devices: mlx5_0 and mlx5_1"));
}

TEST_F(ConfigurationChecksTest, NcclHcaNamingPresentDevicesStaysQuiet) {
  host_.Process(4100, "python3", {"NCCL_IB_HCA=mlx5"}, true)
      .Process(4200, "python3", {"NCCL_IB_HCA=^=mlx5_9"}, true)
      .Process(4300, "python3", {"NCCL_IB_HCA==mlx5_0:1,mlx5_1:1"}, true);
  EXPECT_TRUE(Run(check_id::kNcclHcaAbsentDevice).empty());
}

TEST_F(ConfigurationChecksTest, InvalidNcclValuesWarn) {
  host_.Process(4100, "python3", {"NCCL_IB_TIMEOUT=twenty"}, true);
  std::vector<Finding> f = Run(check_id::kNcclInvalidSetting);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message, HasSubstr("NCCL_IB_TIMEOUT=twenty"));
  host_.Process(4100, "python3", {"NCCL_IB_TIMEOUT=20"}, true);
  EXPECT_TRUE(Run(check_id::kNcclInvalidSetting).empty());
}

TEST_F(ConfigurationChecksTest, UnreadableProcessesAreSaidNotHidden) {
  host_.Process(4100, "python3", {"NCCL_IB_TIMEOUT=20"}, true).Process(4200, "python3", {}, true);
  // Another user's process, seen by a non-root diagnose: comm is world-readable, the rest is not.
  PosixFileSystem posix;
  FaultInjectingFileSystem denying(&posix);
  denying.FailPath(host_.paths().procfs_root + "/4200/environ", EACCES);
  denying.FailPrefix(host_.paths().procfs_root + "/4200/fd", EACCES);
  std::vector<Finding> f = Run(check_id::kNcclEnvironmentUnreadable, &denying);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kInfo);
  EXPECT_THAT(f[0].message, HasSubstr("of 1 process (pids 4200; permission denied)"));
  EXPECT_TRUE(Run(check_id::kNcclEnvironmentUnreadable).empty());
}

TEST_F(ConfigurationChecksTest, KernelThreadsAreNotProcessesWithUnreadableSettings) {
  // As root on Linux 6.18: a kernel thread's environ fails with ESRCH, its fd/ is empty.
  host_.File("/proc/2/comm", "kthreadd\n")
      .File("/proc/2/stat", "2 (kthreadd) S 0 0 0 0 -1 2129984")
      .File("/proc/3/comm", "pool_workqueue_release\n")
      .File("/proc/3/stat", "3 (pool_workqueue_release) S 2 0 0 0 -1 2129984");
  PosixFileSystem posix;
  FaultInjectingFileSystem kernel(&posix);
  kernel.FailPath(host_.paths().procfs_root + "/2/environ", ESRCH);
  kernel.FailPath(host_.paths().procfs_root + "/3/environ", ESRCH);
  EXPECT_TRUE(Run(check_id::kNcclEnvironmentUnreadable, &kernel).empty());
}

// --- GID tables ---

TEST_F(ConfigurationChecksTest, RoceV2Ipv4GidAtAnotherIndexOnOneRailWarns) {
  snapshot_.devices.push_back({"mlx5_2", "", "", "", {RocePortOf("ens3f0np0", {"10.0.2.2"})}});
  // Rail 1 carries an IPv6 address first: its IPv4 pair lands at 4/5, no hole below.
  Rail(1).gids = RocePortOf("ens2f0np0", {"10.0.1.2"}, 4).gids;
  Rail(1).gids.push_back(Gid(2, "fd00:1::2", GidType::kRoceV1, "ens2f0np0"));
  Rail(1).gids.push_back(Gid(3, "fd00:1::2", GidType::kRoceV2, "ens2f0np0"));
  std::vector<Finding> f = Run(check_id::kRoceV2Ipv4GidIndexDiffers);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].subject, "mlx5_1/1");
  EXPECT_THAT(f[0].message, HasSubstr("index 5 while 2 of the node's 3 rails have it at index 3"));
}

TEST_F(ConfigurationChecksTest, SameIndexOnEveryRailStaysQuiet) {
  EXPECT_TRUE(Run(check_id::kRoceV2Ipv4GidIndexDiffers).empty());
}

TEST_F(ConfigurationChecksTest, Ipv6WithoutRoceV2GidIsCritical) {
  netdevs_["ens1f0np0"] =
      Netdev("ens1f0np0", {"10.0.0.2/24", "fd00::2/64", "fe80::1/64", "::1/128"});
  std::vector<Finding> f = Run(check_id::kIpv6WithoutRoceV2Gid);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kCritical);
  EXPECT_EQ(f[0].subject, "ens1f0np0");
  EXPECT_THAT(f[0].message, HasSubstr("ens1f0np0 (mlx5_0/1) has fd00::2/64 but no RoCE v2 GID"));
  EXPECT_THAT(f[0].message, Not(HasSubstr("::1/128")));  // loopback, as on `lo`
}

TEST_F(ConfigurationChecksTest, Ipv6WithItsRoceV2GidStaysQuiet) {
  netdevs_["ens1f0np0"] = Netdev("ens1f0np0", {"10.0.0.2/24", "fd00::2/64"});
  Rail(0).gids.push_back(Gid(4, "fd00::2", GidType::kRoceV1, "ens1f0np0"));
  Rail(0).gids.push_back(Gid(5, "fd00::2", GidType::kRoceV2, "ens1f0np0"));
  EXPECT_TRUE(Run(check_id::kIpv6WithoutRoceV2Gid).empty());
  // IPv4 addresses are the foundation's ipv4_without_roce_v2_gid, not this check.
  netdevs_["ens1f0np0"] = Netdev("ens1f0np0", {"10.0.0.9/24"});
  EXPECT_TRUE(Run(check_id::kIpv6WithoutRoceV2Gid).empty());
}

// --- counters ---

TEST_F(ConfigurationChecksTest, LinkErrorCountersRisingBetweenSnapshotsWarn) {
  Rail(0).counters.counters = {
      {"symbol_error", 12}, {"link_downed", 2}, {"link_error_recovery", 0}};
  earlier_ = snapshot_;
  earlier_->taken_at = snapshot_.taken_at - std::chrono::seconds(30);
  earlier_->devices[0].ports[0].counters.counters = {
      {"symbol_error", 0}, {"link_downed", 1}, {"link_error_recovery", 0}};
  std::vector<Finding> f = Run(check_id::kLinkErrorCountersRising);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].subject, "mlx5_0/1");
  EXPECT_THAT(f[0].message, HasSubstr("within 30 s: symbol_error 0 -> 12 and link_downed 1 -> 2"));
  EXPECT_THAT(f[0].remedy, HasSubstr("ethtool -m ens1f0np0"));
}

TEST_F(ConfigurationChecksTest, SteadyOrResetCountersStayQuiet) {
  Rail(0).counters.counters = {{"symbol_error", 3}, {"link_downed", 0}};
  earlier_ = snapshot_;
  earlier_->devices[0].ports[0].counters.counters["link_downed"] = 5;  // reset since
  EXPECT_TRUE(Run(check_id::kLinkErrorCountersRising).empty());
  earlier_.reset();  // one snapshot only: nothing to compare
  EXPECT_TRUE(Run(check_id::kLinkErrorCountersRising).empty());
}

TEST_F(ConfigurationChecksTest, AdaptiveRetransmissionCountersAbsentIsInfo) {
  Rail(1).counters.hw_counters = {{"out_of_sequence", 0}, {"np_cnp_sent", 0}};
  std::vector<Finding> f = Run(check_id::kAdaptiveRetransmissionCountersAbsent);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kInfo);
  EXPECT_EQ(f[0].subject, "mlx5_1");
  EXPECT_THAT(f[0].remedy, HasSubstr("--reg_name ROCE_ACCL --get"));
}

TEST_F(ConfigurationChecksTest, AdaptiveRetransmissionCountersPresentOrUnreadableStayQuiet) {
  EXPECT_TRUE(Run(check_id::kAdaptiveRetransmissionCountersAbsent).empty());
  Rail(1).counters.hw_counters.clear();  // no hw_counters at all: nothing to judge
  EXPECT_TRUE(Run(check_id::kAdaptiveRetransmissionCountersAbsent).empty());
}

// roce_adp_retrans* belong to mlx5's hw_counters family; soft-RoCE's (rdma_rxe) family never
// has them: their absence there is "not available", not something to report.
TEST_F(ConfigurationChecksTest, AnotherDriversCounterFamilyLacksThemByDesign) {
  Rail(1).counters.hw_counters = {{"rcvd_pkts", 0},
                                  {"sent_pkts", 0},
                                  {"out_of_seq_request", 0},
                                  {"retry_exceeded_err", 0},
                                  {"link_downed", 0}};
  EXPECT_TRUE(Run(check_id::kAdaptiveRetransmissionCountersAbsent).empty());
}

TEST_F(ConfigurationChecksTest, AConfiguredAddressMissingFromItsRailIsCritical) {
  EXPECT_TRUE(Run("configured_address_missing").empty()) << "both rails have their addresses";
  netdevs_["ens2f0np0"] = Netdev("ens2f0np0", {});  // NetworkManager-style loss: the IP is gone
  std::vector<Finding> found = Run("configured_address_missing");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kCritical);
  EXPECT_EQ(found[0].subject, "ens2f0np0");
  EXPECT_THAT(found[0].message,
              HasSubstr("ens2f0np0 (mlx5_1/1) does not have 10.0.1.2/24, which its configuration "
                        "gives it (/etc/network/interfaces:4, ifupdown)"));
  // The same address with another prefix is not what the configuration gives.
  netdevs_["ens2f0np0"] = Netdev("ens2f0np0", {"10.0.1.2/16"});
  EXPECT_EQ(Run("configured_address_missing").size(), 1u);
  // A netdev whose addresses are unknown (not in this namespace) is not judged.
  netdevs_.erase("ens2f0np0");
  EXPECT_TRUE(Run("configured_address_missing").empty());
}

TEST_F(ConfigurationChecksTest, AConfiguredIpv6AddressIsJudgedByValueNotSpelling) {
  host_.File("/etc/network/interfaces",
             "iface ens1f0np0 inet static\n  address 10.0.0.2/24\n"
             "iface ens2f0np0 inet static\n  address 10.0.1.2/24\n"
             "iface ens2f0np0 inet6 static\n  address FD00:1:0:0::2/64\n");
  netdevs_["ens2f0np0"] = Netdev("ens2f0np0", {"10.0.1.2/24", "fd00:1::2/64"});
  EXPECT_TRUE(Run("configured_address_missing").empty()) << "the same address, spelt otherwise";
  netdevs_["ens2f0np0"] = Netdev("ens2f0np0", {"10.0.1.2/24", "fd00:1::3/64"});
  std::vector<Finding> found = Run("configured_address_missing");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0].message, HasSubstr("does not have FD00:1:0:0::2/64, which its configuration "
                                          "gives it (/etc/network/interfaces:6, ifupdown)"));
  EXPECT_THAT(found[0].message, HasSubstr("NCCL_IB_ADDR_FAMILY=AF_INET6"));
  netdevs_["ens2f0np0"] = Netdev("ens2f0np0", {"10.0.1.2/24", "fd00:1::2/48"});
  EXPECT_EQ(Run("configured_address_missing").size(), 1u) << "another prefix";
}

}  // namespace
}  // namespace rocewatch
