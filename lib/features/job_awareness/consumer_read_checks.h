#pragma once
// What a failed read of the consumer sources leaves unknown, as read_failed findings (warning;
// docs/diagnose.md, "read_failed"): who holds each RDMA device is then unknown, not "nobody",
// and a stop of traffic is judged without its holders.
//
//   subject "procfs"   the process list could not be read; or descriptors (fd/) of processes
//                      could not be read (whether they hold a device is unknown); or a
//                      consumer's cgroup, environ or maps (its job, pod or NCCL version);
//                      names the first files with their errno
//   subject "kubelet"  the pod-resources call failed (no socket is not a failure: not a
//                      Kubernetes node)
//
// Pure: the latest scan and kubelet answer in, findings out. Shared by the daemon and diagnose.

#include <vector>

#include "job_awareness/consumer_merge.h"
#include "model/finding.h"

namespace rocewatch {

// Either may be null (not scanned, or no kubelet). `every_process_readable`: whether EACCES, EPERM
// and ENOENT of procfs count (ConsumerOptions). Empty when every read that counts succeeded.
std::vector<Finding> CheckConsumerSourceReads(const ProcfsConsumerScan* procfs,
                                              const KubeletAnswer* kubelet,
                                              bool every_process_readable);

}  // namespace rocewatch
