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
  EXPECT_TRUE(CheckConsumerSourceReads(&scan, &kubelet).empty());
  EXPECT_TRUE(CheckConsumerSourceReads(nullptr, nullptr).empty());
}

// A host root without /proc (a bundle, a fixture tree) has no processes: a state, not a failure.
TEST(ConsumerReadChecksTest, AnAbsentProcessListIsNoFailedRead) {
  ProcfsConsumerScan scan;
  scan.failures = {{"procfs", "/bundle/proc", ENOENT}};
  EXPECT_TRUE(CheckConsumerSourceReads(&scan, nullptr).empty());
  EXPECT_TRUE(CheckConsumerSourceReads(&scan, nullptr).empty());
}

TEST(ConsumerReadChecksTest, AnUnreadableProcessListMakesEveryHolderUnknown) {
  ProcfsConsumerScan scan;
  scan.failures = {{"procfs", "/proc", EIO}};
  std::vector<Finding> findings = CheckConsumerSourceReads(&scan, nullptr);
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

// A refusal is the reader's identity, not a failing read (a user's diagnose; even root is refused
// a sandbox's init): never a finding. Any other error is one, naming the file.
TEST(ConsumerReadChecksTest, RefusalsAreNoFindingOtherErrorsAre) {
  ProcfsConsumerScan scan = ReadableScan();
  scan.unreadable_pids = {1, 4300};
  scan.failures = {{"procfs", "/proc/1/fd", EACCES}, {"procfs", "/proc/4300/fd", EPERM}};
  EXPECT_TRUE(CheckConsumerSourceReads(&scan, nullptr).empty());
  scan.unreadable_pids.push_back(4400);
  scan.failures.push_back({"procfs", "/proc/4400/fd", EIO});
  std::vector<Finding> findings = CheckConsumerSourceReads(&scan, nullptr);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("/proc/4400/fd: Input/output error (EIO)"), std::string::npos)
      << findings[0].message;
  EXPECT_EQ(findings[0].message.find("EACCES"), std::string::npos);
  EXPECT_NE(findings[0].message.find("whether 3 processes hold an RDMA device is unknown"),
            std::string::npos);
}

TEST(ConsumerReadChecksTest, AFailedKubeletCallIsAFindingButNoSocketIsNot) {
  KubeletAnswer kubelet;
  kubelet.source = "kubelet pod-resources at unix:///var/lib/kubelet/pod-resources/kubelet.sock";
  kubelet.status = Status::NotFound("no pod-resources socket");
  EXPECT_TRUE(CheckConsumerSourceReads(nullptr, &kubelet).empty());
  kubelet.status = Status::Unavailable("connect: Connection refused");
  std::vector<Finding> findings = CheckConsumerSourceReads(nullptr, &kubelet);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].subject, "kubelet");
  EXPECT_NE(findings[0].message.find("connect: Connection refused"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
