// An RDMA port that disappears is critical until it returns or the operator acknowledges it gone
// (inventory/device_presence_detector.h): values in, changes and findings out.
#include "inventory/device_presence_detector.h"

#include <gtest/gtest.h>

#include "support/node_builder.h"

namespace rocewatch {
namespace {

using PresenceKind = PresenceChange::Kind;

constexpr double kPresenceT0 = 1767225600;  // 2026-01-01T00:00:00Z

// mlx5_R on ens<R+1>f0np0 for each of `rails`, present unless listed in `gone`.
NodeSnapshot PresenceNode(int rails, const std::set<int>& gone = {}) {
  NodeSnapshot node;
  for (int r = 0; r < rails; ++r)
    if (gone.count(r) == 0)
      node.devices.push_back(
          RoceDevice("mlx5_" + std::to_string(r), "ens" + std::to_string(r + 1) + "f0np0", {}));
  return node;
}

class DevicePresenceDetectorTest : public ::testing::Test {
 protected:
  DevicePresenceDetectorTest()
      : detector_([this](const PortKey& port, const std::string& netdev) {
          return retired_.count(port.ToString()) == 0 && retired_.count(netdev) == 0;
        }) {
    EXPECT_TRUE(detector_.Observe(PresenceNode(3), kPresenceT0).empty());
  }
  std::vector<PresenceChange> At(double seconds, const NodeSnapshot& node) {
    return detector_.Observe(node, kPresenceT0 + seconds);
  }

  std::set<std::string> retired_;  // what the rail plan no longer lists
  DevicePresenceDetector detector_;
};

TEST_F(DevicePresenceDetectorTest, AVanishedPortIsCriticalUntilItReturns) {
  std::vector<PresenceChange> changes = At(10, PresenceNode(3, {1}));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, PresenceKind::kDisappeared);
  EXPECT_EQ(changes[0].port, (PortKey{"mlx5_1", 1}));
  EXPECT_EQ(changes[0].netdev, "ens2f0np0");
  EXPECT_EQ(changes[0].missing_since, kPresenceT0 + 10);

  // Long after, on every poll: the same finding, never forgotten.
  EXPECT_TRUE(At(3600, PresenceNode(3, {1})).empty());
  std::vector<Finding> findings = detector_.Findings(kPresenceT0 + 3610);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_EQ(findings[0].check, "device_disappeared");
  EXPECT_EQ(findings[0].subject, "mlx5_1/1");
  EXPECT_NE(findings[0].message.find("RDMA port mlx5_1/1 (netdev ens2f0np0) disappeared at "
                                     "2026-01-01T00:00:10Z and has not come back (missing for "
                                     "1h0m)"),
            std::string::npos)
      << findings[0].message;
  EXPECT_NE(findings[0].remedy.find("mlx5_1/1 - -"), std::string::npos) << findings[0].remedy;

  changes = At(3700, PresenceNode(3));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, PresenceKind::kReturned);
  EXPECT_EQ(changes[0].missing_since, kPresenceT0 + 10);
  EXPECT_TRUE(detector_.Findings(kPresenceT0 + 3700).empty());
  EXPECT_EQ(detector_.missing(), 0u);
}

TEST_F(DevicePresenceDetectorTest, ARailPlanThatNoLongerListsAMissingPortAcknowledgesIt) {
  At(10, PresenceNode(3, {2}));
  ASSERT_EQ(detector_.missing(), 1u);
  retired_.insert("ens3f0np0");  // the plan retires it by its netdev
  std::vector<PresenceChange> changes = At(20, PresenceNode(3, {2}));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, PresenceKind::kAcknowledged);
  EXPECT_EQ(changes[0].port, (PortKey{"mlx5_2", 1}));
  EXPECT_TRUE(detector_.Findings(kPresenceT0 + 20).empty());
  EXPECT_EQ(detector_.ports().count({"mlx5_2", 1}), 0u) << "forgotten";
}

TEST_F(DevicePresenceDetectorTest, APortTheRailPlanDoesNotListIsNoIncidentWhenItGoes) {
  retired_.insert("mlx5_0/1");
  std::vector<PresenceChange> changes = At(10, PresenceNode(3, {0}));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, PresenceKind::kAcknowledged);
  EXPECT_FALSE(changes[0].missing_since.has_value());
  EXPECT_TRUE(detector_.Findings(kPresenceT0 + 10).empty());
}

TEST_F(DevicePresenceDetectorTest, AFailedReadUnderTheDeviceIsNoVerdict) {
  NodeSnapshot failed = PresenceNode(3, {1});
  failed.read_errors["sysfs"] = 1;
  failed.read_failures.push_back({"sysfs", "/sys/class/infiniband/mlx5_1/ports/1/state", 5});
  EXPECT_TRUE(At(10, failed).empty());
  NodeSnapshot listing = PresenceNode(3, {1});
  listing.read_errors["sysfs"] = 1;
  listing.read_failures.push_back({"sysfs", "/sys/class/infiniband", 5});
  EXPECT_TRUE(At(11, listing).empty());
  EXPECT_EQ(detector_.missing(), 0u);
  // Failures under another device (a broken one, failing more reads than are named) say nothing
  // of this one.
  NodeSnapshot elsewhere = PresenceNode(3, {1});
  elsewhere.read_errors["sysfs"] = 40;
  elsewhere.read_failures.assign(kNamedReadFailures,
                                 {"sysfs", "/sys/class/infiniband/mlx5_10/fw_ver", 5});
  std::vector<PresenceChange> changes = At(12, elsewhere);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, PresenceKind::kDisappeared);
  EXPECT_EQ(changes[0].missing_since, kPresenceT0 + 12);
  // Once missing, a failed read does not end it.
  EXPECT_TRUE(At(13, failed).empty());
  EXPECT_EQ(detector_.missing(), 1u);
}

TEST_F(DevicePresenceDetectorTest, ADeviceBackUnderAnotherNameEndsTheIncident) {
  At(10, PresenceNode(3, {1}));
  NodeSnapshot renamed = PresenceNode(3, {1});
  renamed.devices.push_back(RoceDevice("mlx5_8", "ens2f0np0", {}));  // a reload renumbered it
  std::vector<PresenceChange> changes = At(20, renamed);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, PresenceKind::kReturned);
  EXPECT_EQ(changes[0].port, (PortKey{"mlx5_1", 1}));
  EXPECT_EQ(changes[0].returned_as, (PortKey{"mlx5_8", 1}));
  EXPECT_TRUE(detector_.Findings(kPresenceT0 + 20).empty());
  EXPECT_EQ(detector_.ports().count({"mlx5_8", 1}), 1u);
}

TEST(DevicePresenceFormatTest, HowLongIsWrittenInItsTwoLargestUnits) {
  EXPECT_EQ(FormatMissingFor(-3), "0s");
  EXPECT_EQ(FormatMissingFor(44.6), "45s");
  EXPECT_EQ(FormatMissingFor(312), "5m12s");
  EXPECT_EQ(FormatMissingFor(3 * 3600 + 7 * 60 + 5), "3h7m");
  EXPECT_EQ(FormatMissingFor(2 * 86400 + 4 * 3600 + 59), "2d4h");
}

TEST(DevicePresenceRestoreTest, RestoredPortsAreJudgedAtTheFirstSnapshot) {
  DevicePresenceDetector detector;
  std::map<PortKey, PersistedSeenPort> seen;
  seen[{"mlx5_0", 1}] = {"ens1f0np0", std::nullopt, false};
  seen[{"mlx5_1", 1}] = {"ens2f0np0", kPresenceT0 - 50, false};  // missing before the restart
  seen[{"mlx5_2", 1}] = {"ens3f0np0", std::nullopt, false};      // present when last written
  detector.Restore(seen, kPresenceT0 - 20);
  std::vector<PresenceChange> changes = detector.Observe(PresenceNode(3, {1, 2}), kPresenceT0);
  ASSERT_EQ(changes.size(), 1u) << "mlx5_1 was missing already: no new change";
  EXPECT_EQ(changes[0].kind, PresenceKind::kDisappeared);
  EXPECT_EQ(changes[0].port, (PortKey{"mlx5_2", 1}));
  EXPECT_TRUE(changes[0].unwatched);
  EXPECT_EQ(changes[0].missing_since, kPresenceT0 - 20);
  std::vector<Finding> findings = detector.Findings(kPresenceT0 + 40);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].subject, "mlx5_1/1");
  EXPECT_NE(findings[0].message.find("disappeared at 2025-12-31T23:59:10Z"), std::string::npos)
      << findings[0].message;
  EXPECT_EQ(findings[1].subject, "mlx5_2/1");
  EXPECT_NE(findings[1].message.find("disappeared while rocewatch was not running: present at "
                                     "2025-12-31T23:59:40Z"),
            std::string::npos)
      << findings[1].message;
}

}  // namespace
}  // namespace rocewatch
