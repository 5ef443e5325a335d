#pragma once
// --gid-source auto|verbs|sysfs: where GID tables are read from.

#include <memory>

#include "app/options.h"
#include "gid/gid_table_source.h"
#include "os/file_system.h"

namespace rocewatch {

// REQUIRES: fs outlives the returned source.
StatusOr<std::unique_ptr<GidTableSource>> OpenGidSource(GidSourceChoice choice,
                                                        const FileSystem& fs,
                                                        const HostPaths& paths);

}  // namespace rocewatch
