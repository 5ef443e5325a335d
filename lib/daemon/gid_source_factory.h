#pragma once
// --gid-source auto|verbs|sysfs: where GID tables are read from (daemon/gid_source_selection.h has
// the decision: auto = verbs if at least one RDMA device opens through libibverbs, else sysfs).

#include <cstddef>
#include <memory>
#include <string>

#include "daemon/gid_source_selection.h"
#include "daemon/options.h"
#include "model/gid_table_source.h"
#include "os/file_system.h"
#include "verbs/verbs_api.h"

namespace rocewatch {

// The chosen source and what it needs to live: the libibverbs seam and, for verbs, the open
// devices (for the async-event watcher of the GID drift component).
struct OpenedGidSource {
  std::unique_ptr<VerbsApi> verbs_api;  // declared first: outlives the selection
  GidSourceSelection selection;

  GidTableSource& source() { return *selection.source; }
  // nullptr unless GIDs are read through verbs.
  VerbsDeviceSet* verbs_devices() { return selection.verbs_devices.get(); }
  // Why auto fell back to sysfs; empty otherwise.
  const std::string& fallback_reason() const { return selection.fallback_reason; }
};

// `verbs` is the libibverbs seam (HostEnv::verbs). REQUIRES: fs outlives the returned source.
// Errors: --gid-source verbs on a host where no device opens (Unavailable, with the reason and
// what to do). sysfs_max_open: descriptors the sysfs source may keep open (0: none, everything
// listed and opened on every read).
StatusOr<OpenedGidSource> OpenGidSource(GidSourceChoice choice, std::unique_ptr<VerbsApi> verbs,
                                        const FileSystem& fs, const HostPaths& paths,
                                        size_t sysfs_max_open = 0);

}  // namespace rocewatch
