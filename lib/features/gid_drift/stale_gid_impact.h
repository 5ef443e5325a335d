#pragma once
// What a GID move does to the consumers of its device, by how their NCCL picks its GID index
// (NCCL's sources, src/transport/net_ib*). Pure.
//
//   NCCL_IB_GID_INDEX pinned to the old index: live and new connections use the stale entry; the
//     job fails or hangs until it is restarted with the new index.
//   pinned elsewhere: this move does not touch its GID (unless the pin held it: then see above).
//   unpinned, NCCL >= 2.21.5 (auto): queue pairs created before the move keep the stale index
//     (NCCL only logs "GID table changed"); new communicators pick the new one.
//   unpinned, NCCL < 2.21.5: NCCL uses index 0 (the default GID), untouched unless it moved.
//   no version known (not NCCL, or statically linked): queue pairs keep the index they were
//     created with: they break like the auto case.

#include <cstdint>
#include <string>
#include <vector>

#include "model/rail_consumer.h"

namespace rocewatch {

// One sentence per affected group, e.g. "pod ml/trainer-0 (NCCL 2.21.5, automatic GID
// selection): its queue pairs created before the move keep index 3 ...". Empty without
// consumers.
std::string DescribeStaleGidImpact(const std::vector<RailConsumer>& consumers, uint32_t old_index,
                                   uint32_t new_index);

}  // namespace rocewatch
