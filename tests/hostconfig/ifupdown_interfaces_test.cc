#include "hostconfig/ifupdown_interfaces.h"

#include <gtest/gtest.h>

#include "support/bytes.h"

namespace rocewatch {
namespace {

TEST(ParseInterfacesFile, ReadsStanzasAutoLinesAndIncludes) {
  InterfacesFile f = ParseInterfacesFile(
      "# The loopback network interface\n"
      "source /etc/network/interfaces.d/*\n"
      "auto lo ens1f0np0\n"
      "iface lo inet loopback\n"
      "\n"
      "allow-hotplug ens1f1np1\n"
      "iface ens1f0np0 inet static\n"
      "    address 10.0.0.2/24\n"
      "    mtu 4200\n"
      "iface ens1f0np0 inet6 static\n"
      "\taddress fd00::2/64\n"
      "source-directory rails.d\n");
  ASSERT_EQ(f.ifaces.size(), 3u);
  EXPECT_EQ(f.ifaces[1].name, "ens1f0np0");
  EXPECT_EQ(f.ifaces[1].family, "inet");
  EXPECT_EQ(f.ifaces[1].method, "static");
  EXPECT_EQ(f.ifaces[1].line, 7);
  EXPECT_EQ(f.ifaces[2].family, "inet6");
  EXPECT_EQ(f.auto_names, (std::vector<std::string>{"lo", "ens1f0np0", "ens1f1np1"}));
  EXPECT_EQ(f.sources, std::vector<std::string>{"/etc/network/interfaces.d/*"});
  EXPECT_EQ(f.source_directories, std::vector<std::string>{"rails.d"});
}

TEST(ParseInterfacesFile, ToleratesMalformedTruncatedAndBinaryInput) {
  struct Case {
    const char* name;
    std::string text;
    size_t ifaces;
    std::vector<int> malformed;
  };
  const Case cases[] = {
      {"empty", "", 0, {}},
      {"iface without method", "iface eth0 inet\n", 0, {1}},
      {"truncated", "iface eth0 inet sta", 1, {}},
      {"continued", "iface eth0 \\\n inet static\n", 1, {}},
      {"binary", Bytes("\0\xff iface\n\x01\x02\n"), 0, {}},
      {"source without pattern", "source\n", 0, {}},
  };
  for (const Case& c : cases) {
    InterfacesFile f = ParseInterfacesFile(c.text);
    EXPECT_EQ(f.ifaces.size(), c.ifaces) << c.name;
    EXPECT_EQ(f.malformed_lines, c.malformed) << c.name;
  }
}

TEST(IfupdownInterfacesTest, AddressAndNetmaskBelongToTheirStanza) {
  InterfacesFile f = ParseInterfacesFile(
      "address 1.2.3.4\n"  // before any stanza: nobody's
      "iface a inet static\n address 10.0.0.2\n netmask 255.255.252.0\n"
      "iface b inet static\n address 10.0.1.2/24\n netmask 255.0.0.0\n"
      "iface c inet static\n address 10.0.2.2\n netmask 255.0.255.0\n"
      "iface d inet6 static\n address fd00::2\n netmask 64\n");
  ASSERT_EQ(f.ifaces.size(), 4u);
  EXPECT_EQ(f.ifaces[0].address, "10.0.0.2/22");
  EXPECT_EQ(f.ifaces[0].address_line, 3);
  EXPECT_EQ(f.ifaces[1].address, "10.0.1.2/24") << "a written prefix wins";
  EXPECT_EQ(f.ifaces[2].address, "10.0.2.2") << "not a contiguous mask: no prefix made";
  EXPECT_EQ(f.ifaces[3].address, "fd00::2");
}

}  // namespace
}  // namespace rocewatch
