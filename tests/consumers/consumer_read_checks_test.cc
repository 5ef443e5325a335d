// read_failed for the consumer sources: what counts as a failed read, and what each finding names.
#include "job_awareness/consumer_read_checks.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace rocewatch {
namespace {

ProcfsConsumerScan ReadableScan() {
  ProcfsConsumerScan scan;
  scan.procfs_readable = true;
  scan.host_namespace = true;
  return scan;
}

TEST(ConsumerReadChecksTest, EverythingReadIsNoFinding) {
  ProcfsConsumerScan scan = ReadableScan();
  KubeletAnswer kubelet;
  EXPECT_TRUE(CheckConsumerSourceReads(&scan, &kubelet, true).empty());
  EXPECT_TRUE(CheckConsumerSourceReads(nullptr, nullptr, true).empty());
}

TEST(ConsumerReadChecksTest, AnUnreadableProcessListMakesEveryHolderUnknown) {
  ProcfsConsumerScan scan;
  scan.failures = {{"procfs", "/proc", EIO}};
  std::vector<Finding> findings = CheckConsumerSourceReads(&scan, nullptr, false);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "read_failed");
  EXPECT_EQ(findings[0].subject, "procfs");
  EXPECT_EQ(findings[0].severity, Severity::kWarning);
  EXPECT_EQ(findings[0].message.rfind("the process list could not be read (/proc: Input/output "
                                      "error (EIO)): who holds each RDMA device is unknown",
                                      0),
            0u)
      << findings[0].message;
}

// A user's diagnose reads only its own processes: refusals are "not seen", not failures. The
// daemon's identity is meant to read them all.
TEST(ConsumerReadChecksTest, PermissionRefusalsCountOnlyWhereTheIdentityShouldReadEverything) {
  ProcfsConsumerScan scan = ReadableScan();
  scan.unreadable_pids = {4200, 4300};
  scan.failures = {{"procfs", "/proc/4200/fd", EACCES}, {"procfs", "/proc/4300/fd", EPERM}};
  EXPECT_TRUE(CheckConsumerSourceReads(&scan, nullptr, false).empty());
  std::vector<Finding> daemon = CheckConsumerSourceReads(&scan, nullptr, true);
  ASSERT_EQ(daemon.size(), 1u);
  EXPECT_NE(daemon[0].message.find("/proc/4200/fd: Permission denied (EACCES) and /proc/4300/fd: "
                                   "Operation not permitted (EPERM)"),
            std::string::npos)
      << daemon[0].message;
  EXPECT_NE(daemon[0].message.find("whether 2 processes hold an RDMA device is unknown"),
            std::string::npos);
  // Another errno counts in both.
  scan.failures.push_back({"procfs", "/proc/4400/environ", EIO});
  std::vector<Finding> user = CheckConsumerSourceReads(&scan, nullptr, false);
  ASSERT_EQ(user.size(), 1u);
  EXPECT_NE(user[0].message.find("/proc/4400/environ: Input/output error (EIO)"),
            std::string::npos);
  EXPECT_EQ(user[0].message.find("EACCES"), std::string::npos);
}

TEST(ConsumerReadChecksTest, AFailedKubeletCallIsAFindingButNoSocketIsNot) {
  KubeletAnswer kubelet;
  kubelet.source = "kubelet pod-resources at unix:///var/lib/kubelet/pod-resources/kubelet.sock";
  kubelet.status = Status::NotFound("no pod-resources socket");
  EXPECT_TRUE(CheckConsumerSourceReads(nullptr, &kubelet, true).empty());
  kubelet.status = Status::Unavailable("connect: Connection refused");
  std::vector<Finding> findings = CheckConsumerSourceReads(nullptr, &kubelet, false);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].subject, "kubelet");
  EXPECT_NE(findings[0].message.find("connect: Connection refused"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
