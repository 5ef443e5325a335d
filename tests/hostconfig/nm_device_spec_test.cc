#include "hostconfig/nm_device_spec.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

TEST(DeviceSpecMatches, FollowsNetworkManagersDeviceListFormat) {
  struct Case {
    const char* spec;
    bool matches;
  };
  const std::string mac = "b8:3f:d2:00:00:01";
  const Case cases[] = {
      {"*", true},
      {"", false},
      {"ens1f0np0", true},
      {"ens1f1np1", false},
      {"interface-name:ens1f0np0", true},
      {"interface-name:ens*", true},
      {"interface-name:=ens*", false},
      {"interface-name:=ens1f0np0", true},
      {"interface-name:~ENS1F0NP0", true},
      {"mac:B8:3F:D2:00:00:01", true},
      {"b8-3f-d2-00-00-01", true},
      {"mac:00:00:00:00:00:01", false},
      {"type:ethernet", false},
      {"eth0,interface-name:ens1*", true},
      {"eth0; ens1f0np0", true},
      {"*,except:interface-name:ens1f0np0", false},
      {"except:interface-name:eth0", true},
      {"except:ens1f0np0", false},
  };
  for (const Case& c : cases)
    EXPECT_EQ(DeviceSpecMatches(c.spec, "ens1f0np0", mac), c.matches) << c.spec;
}

}  // namespace
}  // namespace rocewatch
