// The recorded link flags and addresses of a support bundle: written by collect, read back by
// diagnose --host-root in place of its own namespace's.
#include "os/netdev_recording.h"

#include <gtest/gtest.h>

#include "support/fake_file_system.h"

namespace rocewatch {
namespace {

NetdevObservation LiveNetdev(const std::string& name, bool carrier,
                             std::vector<IpAddress> addresses) {
  NetdevObservation o;
  o.state.name = name;
  o.state.carrier = carrier;
  o.state.admin_up = true;
  o.state.addresses = std::move(addresses);
  o.in_namespace = true;
  o.carrier_known = true;
  return o;
}

const IpAddress kV4{AddressFamily::kIpv4, "10.0.0.2", 24, false};
const IpAddress kV6{AddressFamily::kIpv6, "fd00::2", 64, false};
const IpAddress kLinkLocal{AddressFamily::kIpv6, "fe80::1", 64, true};

// A namespace that knows only the netdevs it was given.
class FixedReader final : public NetdevReader {
 public:
  std::map<std::string, NetdevObservation> known;
  std::map<std::string, NetdevObservation> Read(const std::vector<std::string>& names) override {
    std::map<std::string, NetdevObservation> out;
    for (const std::string& name : names) {
      auto it = known.find(name);
      out[name] = it != known.end() ? it->second : NetdevObservation{};
      out[name].state.name = name;
    }
    return out;
  }
};

TEST(NetdevRecording, WhatCollectWritesReadsBackTheSame) {
  std::map<std::string, NetdevObservation> observed = {
      {"ens1f0np0", LiveNetdev("ens1f0np0", true, {kV4, kV6, kLinkLocal})},
      {"ens2f0np0", LiveNetdev("ens2f0np0", false, {})},
      {"ens3f0np0", NetdevObservation{}},
  };
  observed["ens3f0np0"].state.name = "ens3f0np0";
  const std::string text = FormatNetdevRecording(observed);
  EXPECT_NE(text.find("ens1f0np0: carrier up, admin up, 10.0.0.2/24 fd00::2/64 fe80::1/64\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ens3f0np0: not in the namespace\n"), std::string::npos) << text;
  StatusOr<std::map<std::string, NetdevObservation>> parsed = ParseNetdevRecording(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->size(), 2u);  // the one not in the namespace is not known
  EXPECT_EQ(parsed->at("ens1f0np0").state, observed["ens1f0np0"].state);
  EXPECT_EQ(parsed->at("ens2f0np0").state, observed["ens2f0np0"].state);
  EXPECT_TRUE(parsed->at("ens2f0np0").in_namespace);
}

TEST(NetdevRecording, ALineThatIsNotARecordingIsAnErrorNamingIt) {
  for (const char* text : {"ens1f0np0 carrier up\n", "ens1f0np0: carrier sideways\n",
                           "ens1f0np0: carrier up, 10.0.0.300/24\n", "ens1f0np0: admin up\n",
                           "ens1f0np0: carrier up, 10.0.0.2\n"}) {
    StatusOr<std::map<std::string, NetdevObservation>> parsed =
        ParseNetdevRecording(std::string("# comment\n") + text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.status().message().find("line 2"), std::string::npos)
        << parsed.status().message();
  }
}

TEST(NetdevRecording, TheReaderPrefersTheRecordingAndKeepsTheHostRootsSysfsAttributes) {
  FakeFileSystem fs;
  fs.AddFile("/bundle/rocewatch/netlink/addresses",
             "ens1f0np0: carrier up, admin up, 10.0.0.2/24\nens2f0np0: not in the namespace\n");
  FixedReader live;
  NetdevObservation sysfs_only;  // what a host root's sysfs says of a netdev not in the namespace
  sysfs_only.state.ifindex = 4;
  sysfs_only.state.operstate = "up";
  sysfs_only.carrier_known = true;
  live.known["ens1f0np0"] = sysfs_only;
  RecordedNetdevReader reader(fs, "/bundle", live);
  EXPECT_EQ(reader.problem(), "");
  std::map<std::string, NetdevObservation> read = reader.Read({"ens1f0np0", "ens2f0np0"});
  const NetdevObservation& rail = read.at("ens1f0np0");
  EXPECT_TRUE(rail.in_namespace);
  EXPECT_TRUE(rail.state.carrier);
  EXPECT_EQ(rail.state.addresses, std::vector<IpAddress>{kV4});
  EXPECT_EQ(rail.state.ifindex, 4);
  EXPECT_EQ(rail.state.operstate, "up");
  EXPECT_FALSE(read.at("ens2f0np0").in_namespace);  // recorded as absent: as the live side says
}

TEST(NetdevRecording, WithoutARecordingOrWithABrokenOneTheLiveNamespaceAnswers) {
  FakeFileSystem fs;
  FixedReader live;
  live.known["ens1f0np0"] = LiveNetdev("ens1f0np0", true, {kV6});
  EXPECT_EQ(RecordedNetdevReader(fs, "/", live).Read({"ens1f0np0"}).at("ens1f0np0").state,
            live.known["ens1f0np0"].state);
  fs.AddFile("/rocewatch/netlink/addresses", "garbage\n");
  RecordedNetdevReader broken(fs, "/", live);
  EXPECT_NE(broken.problem().find("line 1"), std::string::npos) << broken.problem();
  EXPECT_EQ(broken.Read({"ens1f0np0"}).at("ens1f0np0").state, live.known["ens1f0np0"].state);
}

}  // namespace
}  // namespace rocewatch
