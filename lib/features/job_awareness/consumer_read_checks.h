#pragma once
// What a failed read of the consumer sources leaves unknown, as read_failed findings (warning;
// docs/diagnose.md, "read_failed"): who holds each RDMA device is then unknown, not "nobody",
// and a stop of traffic is judged without its holders.
//
//   subject "procfs"   the process list could not be read; or descriptors (fd/) of processes
//                      could not be read (whether they hold a device is unknown); or a
//                      consumer's cgroup, environ or maps (its job, pod or NCCL version);
//                      names the first files with their errno (refusals excepted, below)
//   subject "kubelet"  the pod-resources call failed (no socket is not a failure: not a
//                      Kubernetes node)
//
// Pure: the latest scan and kubelet answer in, findings out. Shared by the daemon and diagnose.

#include <vector>

#include "job_awareness/consumer_merge.h"
#include "model/finding.h"

namespace rocewatch {

// Either may be null (not scanned, or no kubelet). Refusals (EACCES, EPERM: the reader's identity,
// shown as blind processes and "not seen") and a process list that does not exist (ENOENT: a
// bundle or a fixture tree) never count. Empty when every read that counts succeeded.
std::vector<Finding> CheckConsumerSourceReads(const ProcfsConsumerScan* procfs,
                                              const KubeletAnswer* kubelet);

}  // namespace rocewatch
