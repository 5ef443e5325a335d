#include "job_awareness/consumer_read_checks.h"

#include <cerrno>
#include <optional>

#include "core/text.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

constexpr char kReadFailed[] = "read_failed";

// Refused or absent: what a user's diagnose or a bundle without /proc meets.
bool RefusedOrAbsent(int sys_errno) {
  return sys_errno == EACCES || sys_errno == EPERM || sys_errno == ENOENT;
}

std::string Describe(const ReadFailure& failure) {
  return failure.path + ": " + ErrnoText(failure.sys_errno);
}

std::optional<Finding> ProcfsFinding(const ProcfsConsumerScan& scan, bool every_process_readable) {
  std::vector<std::string> files;
  for (const ReadFailure& failure : scan.failures)
    if (every_process_readable || !RefusedOrAbsent(failure.sys_errno))
      files.push_back(Describe(failure));
  if (files.empty()) return std::nullopt;
  std::string message;
  if (!scan.procfs_readable) {
    message = "the process list could not be read (" + JoinList(files, 1) +
              "): who holds each RDMA device is unknown";
  } else {
    message = "process files could not be read: " + JoinList(files, 4);
    if (!scan.unreadable_pids.empty())
      message += "; whether " + std::to_string(scan.unreadable_pids.size()) + " process" +
                 (scan.unreadable_pids.size() > 1 ? "es hold" : " holds") +
                 " an RDMA device is unknown";
    else
      message += "; the job, pod or NCCL version of a consumer is unknown";
  }
  return Finding{SeverityOf(kReadFailed), kReadFailed, "procfs",
                 message + ", not \"nobody\", so a stop of traffic is judged without its holders.",
                 "Read the files named as the daemon's user; EACCES or EPERM means rocewatch lacks "
                 "CAP_SYS_PTRACE (or runs outside the host's process namespace: hostPID), see "
                 "docs/deploy.md; other errors point at the process named (a task stuck in the "
                 "kernel holds its mm lock) or at /proc's mount."};
}

}  // namespace

std::vector<Finding> CheckConsumerSourceReads(const ProcfsConsumerScan* procfs,
                                              const KubeletAnswer* kubelet,
                                              bool every_process_readable) {
  std::vector<Finding> out;
  if (procfs)
    if (std::optional<Finding> finding = ProcfsFinding(*procfs, every_process_readable))
      out.push_back(*finding);
  if (kubelet && !kubelet->status.ok() && kubelet->status.code() != StatusCode::kNotFound)
    out.push_back(Finding{
        SeverityOf(kReadFailed), kReadFailed, "kubelet",
        "the kubelet's pod-resources call failed (" + kubelet->source + ": " +
            kubelet->status.message() +
            "): which pods hold the RDMA devices is unknown, so findings name no pod.",
        "Check that the kubelet runs and that its pod-resources socket is mounted into the "
        "rocewatch pod (docs/deploy.md); `--kubelet-socket none` on a node without Kubernetes."});
  return out;
}

}  // namespace rocewatch
