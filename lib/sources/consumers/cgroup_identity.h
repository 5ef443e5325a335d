#pragma once
// Where a process runs, from its /proc/<pid>/cgroup (readable by anyone). Pure parser.
//
// Recognised paths (cgroup v1 "N:controllers:/path" and v2 "0::/path" lines alike):
//   Kubernetes, systemd driver:  /kubepods.slice/kubepods-burstable.slice/
//                                kubepods-burstable-pod<uid with
//                                '_'>.slice/cri-containerd-<id>.scope
//   Kubernetes, cgroupfs driver: /kubepods/burstable/pod<uid>/<id>   (and /kubepods/pod<uid>/<id>)
//   container runtimes:          cri-containerd-<id>.scope, crio-<id>.scope, docker-<id>.scope
//   Slurm:                       /slurm[_<node>]/uid_<u>/job_<id>/step_<s>/...        (v1)
//                                /system.slice/slurmstepd.scope/job_<id>/step_<s>/...  (v2)
//                                /system.slice/<node>_slurmstepd.scope/job_<id>/...    (v2,
//                                multiple slurmd per host)
// Anything else (a host process, a path hidden by a cgroup namespace: "0::/") yields no identity.

#include <string>
#include <string_view>

namespace rocewatch {

struct CgroupIdentity {
  std::string pod_uid;       // "1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e" (always with '-')
  std::string container_id;  // 64 lowercase hex digits
  std::string slurm_job;     // "1234"
  // Lines that are not "<id>:<controllers>:<path>" (garbage, a cut read).
  size_t malformed_lines = 0;

  bool operator==(const CgroupIdentity&) const = default;
};

CgroupIdentity ParseCgroupIdentity(std::string_view content);

}  // namespace rocewatch
