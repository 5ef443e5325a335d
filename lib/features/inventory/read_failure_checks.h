#pragma once
// What a failed read leaves unknown, as findings (docs/diagnose.md, "read_failed"): a GID slot or
// counter whose read failed is unknown, not empty or absent, and the checks that need it say they
// could not run. One pure function shared by `rocewatch diagnose` and the daemon.
//
//   read_failed  warning  per port with unknown GID slots, an unlistable GID table or unreadable
//                         counters: the files (a handful, then a count) with their errno, and the
//                         checks of that port that could not run;
//                         one more, subject the source ("sysfs", "verbs"), for failed reads
//                         outside any port (device attributes, listings, dev_port).
// Pure: values in, findings out.

#include <string>
#include <vector>

#include "model/finding.h"
#include "model/node.h"

namespace rocewatch {

namespace check_id {
inline constexpr char kReadFailed[] = "read_failed";
}  // namespace check_id

// How many failed files one finding names; the rest are counted.
inline constexpr size_t kFilesNamedPerFinding = 4;

// `named` are the failures to name (usually snapshot.read_failures; the daemon passes the last
// ones it saw, since a table carried forward keeps its unknown slots between reads).
std::vector<Finding> CheckReadFailures(const NodeSnapshot& snapshot,
                                       const std::vector<ReadFailure>& named);

// The checks that cannot judge a port whose GID table is not fully known, for their messages.
inline constexpr char kGidChecksNotRun[] =
    "ipv4_without_roce_v2_gid, ipv6_without_roce_v2_gid, gid_table_hole, "
    "roce_v2_ipv4_gid_index_differs and nccl_gid_index_without_roce_v2_gid";

}  // namespace rocewatch
