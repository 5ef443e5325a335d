#include "app/gid_source_factory.h"

#include "sysfs/sysfs_gid_table_source.h"

namespace rocewatch {

StatusOr<std::unique_ptr<GidTableSource>> OpenGidSource(GidSourceChoice choice,
                                                        const FileSystem& fs,
                                                        const HostPaths& paths) {
  if (choice == GidSourceChoice::kVerbs) {
    return Status::Unavailable("--gid-source=verbs: the verbs GID reader is not in this build");
  }
  return std::unique_ptr<GidTableSource>(
      std::make_unique<SysfsGidTableSource>(fs, paths.sysfs_root));
}

}  // namespace rocewatch
