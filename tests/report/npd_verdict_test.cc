#include "diagnose/npd_verdict.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

Finding Make(Severity severity, std::string check, std::string subject, std::string message) {
  return Finding{severity, std::move(check), std::move(subject), std::move(message), "remedy"};
}

const Finding kPortDown = Make(Severity::kWarning, "port_not_active", "mlx5_1/1", "state DOWN");
const Finding kNoGid = Make(Severity::kCritical, "ipv4_without_roce_v2_gid", "mlx5_0/1",
                            "ens1f0np0 has 10.0.0.2 but no RoCE v2 GID");
const Finding kNote = Make(Severity::kInfo, "adaptive_retransmission_unknown", "mlx5_0/1", "n/a");

struct Case {
  const char* name;
  std::vector<Finding> findings;
  NpdVerdict expected;
};

class NpdVerdictTest : public ::testing::TestWithParam<Case> {};

TEST_P(NpdVerdictTest, MapsFindingsToTheNpdProtocol) {
  EXPECT_EQ(NpdVerdictFor(GetParam().findings), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Findings, NpdVerdictTest,
    ::testing::Values(
        Case{"none", {}, {kNpdOk, "RDMA network healthy"}},
        Case{"info_only", {kNote}, {kNpdOk, "RDMA network healthy"}},
        Case{"a_warning_is_ok_but_named",
             {kNote, kPortDown},
             {kNpdOk, "warning port_not_active on mlx5_1/1: state DOWN"}},
        Case{"a_critical_is_non_ok",
             {kNoGid},
             {kNpdNonOk,
              "critical ipv4_without_roce_v2_gid on mlx5_0/1: ens1f0np0 has 10.0.0.2 but no "
              "RoCE v2 GID"}},
        Case{"the_critical_wins_over_an_earlier_warning_and_the_rest_is_counted",
             {kPortDown, kNote, kNoGid, kPortDown},
             {kNpdNonOk,
              "critical ipv4_without_roce_v2_gid on mlx5_0/1: ens1f0np0 has 10.0.0.2 but no "
              "RoCE v2 GID (+2 more)"}},
        Case{"a_rail_down_under_a_job_is_non_ok_beside_its_link_warnings",
             {kPortDown, Make(Severity::kWarning, "netdev_carrier_down", "ens1f1np1", "no carrier"),
              Make(Severity::kCritical, "rail_down_under_job", "mlx5_1/1",
                   "Link down under a job for 3m")},
             {kNpdNonOk,
              "critical rail_down_under_job on mlx5_1/1: Link down under a job for 3m "
              "(+2 more)"}},
        Case{"multi_line_messages_become_one_line",
             {Make(Severity::kCritical, "gid_drift", "mlx5_0/1", "moved 3 -> 5\nsince\t12:00\n")},
             {kNpdNonOk, "critical gid_drift on mlx5_0/1: moved 3 -> 5 since 12:00"}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// The line names the cause before its consequences, whatever order the host or the daemon listed
// the findings in: a drift before the stale NCCL pin and the collapse it explains.
TEST(NpdVerdictOrder, TheDriftIsNamedBeforeTheStalePinItExplainsInEitherOrder) {
  const Finding drift = Make(Severity::kCritical, "gid_drift", "mlx5_0/1", "moved 3 -> 5");
  const Finding pin = Make(Severity::kCritical, "nccl_gid_index_without_roce_v2_gid", "pid 4242",
                           "NCCL_IB_GID_INDEX=3 names no RoCE v2 GID");
  const Finding collapse = Make(Severity::kCritical, "traffic_collapsed", "mlx5_0/1", "0 B/s");
  const std::string expected = "critical gid_drift on mlx5_0/1: moved 3 -> 5 (+2 more)";
  EXPECT_EQ(NpdVerdictFor({drift, pin, collapse}).message, expected);
  EXPECT_EQ(NpdVerdictFor({pin, collapse, drift}).message, expected);
  EXPECT_EQ(NpdVerdictFor({collapse, drift, pin}).message, expected);
}

TEST(NpdVerdictOrder, AVanishedDeviceIsNamedBeforeWhatItsLossExplains) {
  const Finding gone = Make(Severity::kCritical, "device_disappeared", "mlx5_1/1",
                            "RDMA port mlx5_1/1 (netdev ens2f0np0) disappeared");
  const Finding down = Make(Severity::kCritical, "rail_down_under_job", "mlx5_1/1", "link down");
  const Finding drift = Make(Severity::kCritical, "gid_drift", "mlx5_0/1", "moved 3 -> 5");
  const std::string expected =
      "critical device_disappeared on mlx5_1/1: RDMA port mlx5_1/1 (netdev ens2f0np0) "
      "disappeared (+2 more)";
  EXPECT_EQ(NpdVerdictFor({down, drift, gone}).message, expected);
  EXPECT_EQ(NpdVerdictFor({gone, down, drift}).message, expected);
  EXPECT_EQ(NpdVerdictFor({gone}).exit_status, kNpdNonOk);
}

TEST(NpdVerdictOrder, TheSameCheckOnTwoSubjectsNamesTheSmallerSubject) {
  const Finding rail0 = Make(Severity::kCritical, "gid_drift", "mlx5_0/1", "moved 3 -> 5");
  const Finding rail1 = Make(Severity::kCritical, "gid_drift", "mlx5_1/1", "moved 3 -> 4");
  EXPECT_EQ(NpdVerdictFor({rail1, rail0}).message, NpdVerdictFor({rail0, rail1}).message);
  EXPECT_EQ(NpdVerdictFor({rail1, rail0}).message,
            "critical gid_drift on mlx5_0/1: moved 3 -> 5 (+1 more)");
}

TEST(NpdVerdictOrder, ACheckMissingFromTheTableComesAfterEveryListedOne) {
  const Finding unknown = Make(Severity::kCritical, "a_check_of_a_newer_daemon", "mlx5_0/1", "x");
  EXPECT_EQ(NpdVerdictFor({unknown, kNoGid}).message,
            "critical ipv4_without_roce_v2_gid on mlx5_0/1: ens1f0np0 has 10.0.0.2 but no "
            "RoCE v2 GID (+1 more)");
  EXPECT_EQ(NpdVerdictFor({unknown}).exit_status, kNpdNonOk);  // still a problem
}

TEST(NpdCouldNotRun, IsUnknownWithTheReason) {
  EXPECT_EQ(NpdCouldNotRun("cannot read sysfs at /host/sys: not a directory\n"),
            (NpdVerdict{kNpdUnknown,
                        "rocewatch diagnose could not run: cannot read sysfs at /host/sys: not a "
                        "directory"}));
}

}  // namespace
}  // namespace rocewatch
