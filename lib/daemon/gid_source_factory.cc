#include "daemon/gid_source_factory.h"

#include "sysfs/sysfs_gid_table_source.h"

namespace rocewatch {

StatusOr<OpenedGidSource> OpenGidSource(GidSourceChoice choice, std::unique_ptr<VerbsApi> verbs,
                                        const FileSystem& fs, const HostPaths& paths,
                                        size_t sysfs_max_open) {
  OpenedGidSource opened;
  opened.verbs_api = std::move(verbs);
  StatusOr<GidSourceSelection> selection =
      MakeGidTableSource(choice, *opened.verbs_api, [&fs, &paths, sysfs_max_open] {
        return std::unique_ptr<GidTableSource>(
            std::make_unique<SysfsGidTableSource>(fs, paths.sysfs_root, sysfs_max_open));
      });
  if (!selection.ok()) return selection.status();
  opened.selection = std::move(selection).value();
  return opened;
}

}  // namespace rocewatch
