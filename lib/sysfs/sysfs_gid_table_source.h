#pragma once
// GID tables read from sysfs: <sysfs_root>/class/infiniband/<dev>/ports/<p>/gids/<i> and
// gid_attrs/{types,ndevs}/<i>. The fallback source where verbs devices cannot be opened, and the
// one tests drive through a fixture tree.
//
// Observer effect (shared/field-notes.md): every read of a GID attribute takes a kernel reference
// on the entry for the duration of the read. So this reader reads as little as it can:
//   - gids/<i> of every slot (the table's only complete view);
//   - a zero GID (empty, reserved or pending-delete slot) is not an entry: its types/ndevs are NOT
//     read;
//   - for a non-zero GID, gid_attrs/types/<i>, then gid_attrs/ndevs/<i> on RoCE ports only (on an
//     InfiniBand port, found by ports/<p>/link_layer, a GID has no netdev and the kernel fails the
//     read; the type "IB/RoCE v1" means kIb there).
// Any failing read (EINVAL as the kernel returns for an empty or pending slot, or any other errno)
// or unparsable content means "no valid entry" and counts in failed_reads; never fatal.
// A later optimisation may keep the gids/ descriptors open and pread() them (3x cheaper per pass,
// field notes); the interface does not change.
//
// Threading: ReadDevice is not reentrant per object; `fs` must outlive this object.

#include <string>

#include "gid/gid_table_source.h"
#include "os/file_system.h"

namespace rocewatch {

class SysfsGidTableSource final : public GidTableSource {
 public:
  SysfsGidTableSource(const FileSystem& fs, std::string sysfs_root);

  const char* name() const override { return "sysfs"; }
  // Errors: NotFound if <root>/class/infiniband/<device>/ports does not exist (device gone);
  // the Status of listing it otherwise. A port or slot that fails is counted, not fatal.
  StatusOr<GidTableRead> ReadDevice(const std::string& device) override;

 private:
  const FileSystem& fs_;
  std::string sysfs_root_;
};

}  // namespace rocewatch
