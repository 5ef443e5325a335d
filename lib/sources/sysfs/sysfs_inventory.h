#pragma once
// The node inventory read from sysfs: every RDMA device under <sysfs_root>/class/infiniband with
// its attributes, ports, port netdevs, GID tables (through a GidTableSource) and counters, as one
// NodeSnapshot (lib/model/node.h).
//
// What it reads, per device <dev> (paths under <sysfs_root>/class/infiniband/<dev>/):
//   fw_ver, hca_type, node_guid;
//   ports/<p>/{state, phys_state, link_layer, rate}; gid_table_len = number of entries of gids/;
//   device/net/<if>: the device's netdevs; with several ports, device/net/<if>/dev_port (0-based)
//     says which port an interface belongs to; each port also gets the distinct ndevs of its GIDs;
//   with read_counters: every numeric file of ports/<p>/counters/ (port_xmit_data and port_rcv_data
//     x4 into transmit_bytes / receive_bytes, port_xmit_packets / port_rcv_packets) and of
//     ports/<p>/hw_counters/ except settings (lifespan).
// GID entries come from `gid_source`, never from this class (so a verbs source can stand behind
// it); with a null gid_source the GIDs are not read at all.
//
// Failures: a failed read is counted in read_errors["sysfs"] (GID reads in
// read_errors[gid_source->name()]) and the attribute is left empty/absent; content that does not
// parse (e.g. a counter "N/A (no PMA)") is absent but not counted; unknown state names pass
// through. A device or port that vanishes mid-read is skipped. Only a missing or unreadable
// sysfs root is an error: NotFound / PermissionDenied (or IoError) naming the path. A missing
// <root>/class/infiniband is a kernel without RDMA: OK with zero devices.
//
// taken_at is not set (no clock in lib/ readers): the caller stamps it.
// Each Read lists and reads everything afresh (a one-shot SysfsPoller, sysfs/sysfs_poller.h, which
// the daemon keeps instead to read far less per poll).
// Threading: Read is const and keeps no state; `fs` must outlive this object.

#include <string>

#include "core/status.h"
#include "model/gid_table_source.h"
#include "model/node.h"
#include "os/file_system.h"

namespace rocewatch {

class SysfsInventory {
 public:
  SysfsInventory(const FileSystem& fs, std::string sysfs_root);

  // gid_source may be null. Devices sorted naturally by name, ports by number.
  StatusOr<NodeSnapshot> Read(GidTableSource* gid_source, bool read_counters) const;

 private:
  const FileSystem& fs_;
  std::string sysfs_root_;
};

}  // namespace rocewatch
