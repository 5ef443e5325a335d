#include "job_awareness/consumer_read_checks.h"

#include <cerrno>
#include <optional>

#include "core/text.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

constexpr char kReadFailed[] = "read_failed";

// Refused: what a user's diagnose meets on other users' processes.
bool Refused(int sys_errno) { return sys_errno == EACCES || sys_errno == EPERM; }

std::string Describe(const ReadFailure& failure) {
  return failure.path + ": " + ErrnoText(failure.sys_errno);
}

std::optional<Finding> ProcfsFinding(const ProcfsConsumerScan& scan) {
  std::vector<std::string> files;
  for (const ReadFailure& failure : scan.failures) {
    // An absent process list is a host root with no processes (a bundle, a fixture tree), as an
    // absent kubelet socket is a node without Kubernetes: a state, not a failed read.
    if (failure.sys_errno == ENOENT && !scan.procfs_readable) continue;
    // A refusal is a matter of identity, not a failing read: a user's diagnose reads only its own
    // processes, and even root is refused some (a process of another user namespace, a
    // sandbox's init, Yama's ptrace_scope 3). Those processes are "not seen" and counted in
    // rocewatch_consumer_blind_processes; a finding for them would fire on healthy nodes.
    if (!Refused(failure.sys_errno)) files.push_back(Describe(failure));
  }
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
  return Finding{
      SeverityOf(kReadFailed), kReadFailed, "procfs",
      message + ", not \"nobody\", so a stop of traffic is judged without its holders.",
      "Read the files named as the daemon's user; the errors point at the process named (a "
      "task stuck in the kernel holds its mm lock) or at /proc's mount."};
}

}  // namespace

std::vector<Finding> CheckConsumerSourceReads(const ProcfsConsumerScan* procfs,
                                              const KubeletAnswer* kubelet) {
  std::vector<Finding> out;
  if (procfs)
    if (std::optional<Finding> finding = ProcfsFinding(*procfs)) out.push_back(*finding);
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
