// The addresses of a support bundle travel: `rocewatch collect` in a network namespace where the
// example node's first rail (ens1f0np0) is a real veth with its address records the link flags and
// addresses, and `diagnose --host-root BUNDLE` outside that namespace reports them (and the checks
// that need them) exactly as diagnose inside it reported the live netdev.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/example_node.h"
#include "support/golden.h"
#include "support/net_namespace.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

TEST(CollectNetdevAddressesTest, DiagnoseOfTheBundleReportsTheCollectingNamespacesAddresses) {
  auto ns = NetNamespace::Create("addr");
  if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
  // Without IPv6 no link-local address appears on its own between collect and diagnose.
  int sysctl = -1;
  RunCommand((*ns)->ExecPrefix() + "sysctl -qw net.ipv6.conf.default.disable_ipv6=1", &sysctl);
  ASSERT_EQ(sysctl, 0);
  ASSERT_TRUE((*ns)->AddVethPair("ens1f0np0", "peer0").ok());
  ASSERT_TRUE((*ns)->Ip("addr add 10.0.0.2/24 dev ens1f0np0").ok());
  TempDir host, bundle;
  ASSERT_TRUE(WriteExampleNode(host.path()).ok());
  const std::string binary = std::string(ROCEWATCH_BINARY);
  int status = -1;
  RunCommand((*ns)->ExecPrefix() + binary + " collect --no-optics --lldp-wait 0 " + bundle.path() +
                 " --host-root " + host.path() + " 2>/dev/null",
             &status);
  ASSERT_EQ(status, 0);
  const std::string diagnose = " diagnose --json --daemon none --link-window 0 --host-root ";
  nlohmann::json inside = nlohmann::json::parse(
      RunCommand((*ns)->ExecPrefix() + binary + diagnose + host.path() + " 2>/dev/null", &status));
  nlohmann::json from_bundle = nlohmann::json::parse(
      RunCommand(binary + diagnose + bundle.path() + " 2>/dev/null", &status));

  auto rail = [](const nlohmann::json& report) {
    for (const auto& n : report["netdevs"])
      if (n["name"] == "ens1f0np0") return n;
    return nlohmann::json();
  };
  ASSERT_EQ(rail(inside)["addresses"], nlohmann::json::array({"10.0.0.2/24"})) << inside.dump(1);
  EXPECT_EQ(rail(inside)["in_namespace"], true);
  EXPECT_EQ(rail(from_bundle), rail(inside));
  EXPECT_EQ(from_bundle["netdevs"], inside["netdevs"]);
  EXPECT_EQ(from_bundle["findings"], inside["findings"]);
}

}  // namespace
}  // namespace rocewatch
