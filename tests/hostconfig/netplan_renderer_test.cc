#include "hostconfig/netplan_renderer.h"

#include <gtest/gtest.h>

#include "support/bytes.h"

namespace rocewatch {
namespace {

TEST(ParseNetplanRenderers, GlobalRendererAppliesToEveryDevice) {
  NetplanRenderers r = ParseNetplanRenderers(
      "# Let NetworkManager manage all devices on this system\n"
      "network:\n"
      "  version: 2\n"
      "  renderer: NetworkManager\n"
      "  ethernets:\n"
      "    ens1f0np0:\n"
      "      addresses: [10.0.0.2/24]\n");
  EXPECT_EQ(r.RendererOf("ens1f0np0"), "NetworkManager");
  EXPECT_EQ(r.RendererOf("ens2f0np0"), std::nullopt);  // not defined in this file
}

TEST(ParseNetplanRenderers, DeviceRendererAndSetNameWin) {
  NetplanRenderers r = ParseNetplanRenderers(
      "network:\n"
      "  renderer: NetworkManager\n"
      "  ethernets:\n"
      "    rail0:\n"
      "      match:\n"
      "        macaddress: \"b8:3f:d2:00:00:01\"\n"
      "      set-name: ens1f0np0\n"
      "      renderer: networkd\n"
      "    'ens2f0np0':\n"
      "      dhcp4: false\n");
  EXPECT_EQ(r.RendererOf("ens1f0np0"), "networkd");
  EXPECT_EQ(r.RendererOf("rail0"), "networkd");
  EXPECT_EQ(r.RendererOf("ens2f0np0"), "NetworkManager");
}

TEST(ParseNetplanRenderers, DefaultsToNetworkdAndIgnoresWhatItCannotRead) {
  NetplanRenderers r = ParseNetplanRenderers(
      "network:\n  ethernets:\n    ens1f0np0: {dhcp4: true}\n    ens1f1np1:\n      - odd\n");
  EXPECT_EQ(r.RendererOf("ens1f0np0"), "networkd");
  EXPECT_EQ(r.RendererOf("ens1f1np1"), "networkd");
  for (std::string bad : {std::string(""), std::string("renderer: NetworkManager\n"),
                          Bytes("\0\xff:\n  renderer: x"), std::string(":::\n  :\n")}) {
    NetplanRenderers b = ParseNetplanRenderers(bad);
    EXPECT_FALSE(b.has_network);
    EXPECT_EQ(b.RendererOf("renderer"), std::nullopt);
  }
}

}  // namespace
}  // namespace rocewatch
