#pragma once
// The bundled example node (rocewatch-fixture example-8-rail DIR, `make run`, the golden diagnose
// tests): DIR/sys is ExampleEightRailNode() of sysfs_fixture.h; the host side is what
// --host-root DIR shows besides DIR/sys. Rails 0-2 and 4-7 are configured by ifupdown;
// rail 3 (ens4f0np0, mlx5_3, the drifted one) by NetworkManager without ignore-carrier, which is
// how its GID moved; a training job (pid 4242) pins NCCL_IB_GID_INDEX=3 and runs with
// NCCL_IB_TIMEOUT=18. The netdev names and ifindexes are those of RailNode(8) in sysfs_fixture.h.

#include <string>

#include "core/status.h"

namespace rocewatch {

// Writes DIR/etc, DIR/run and DIR/proc (created if needed). Errors: IoError naming the path.
Status WriteExampleHostConfiguration(const std::string& host_root);

// The whole example: DIR/sys and the host side above.
Status WriteExampleNode(const std::string& host_root);

}  // namespace rocewatch
