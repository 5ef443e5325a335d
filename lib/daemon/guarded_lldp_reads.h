#pragma once
// The LLDP component's reads of the host (each rail's class/net/<netdev>/mtu, and the host's own
// PFC through DCB netlink: RTM_GETDCB, a driver op under the RTNL lock like ethtool's) made on a
// reading thread of their own behind the read deadline (os/guarded_reader.h), so that a wedged
// driver cannot stop the event loop. A read stuck past the deadline is listed in StuckCalls
// (source "sysfs" for the MTU, "dcb" for the PFC: rocewatch_source_stalled, /healthz), its caller
// gets what an unreadable value gives (no MTU; Unavailable for the PFC), and the thread is given
// up on; the next read starts a new thread with a new DCB socket, the stuck read failing at once
// until it returns.
//
// Threading: the readers are called on the loop thread (the LLDP component's).

#include <functional>
#include <memory>
#include <string>

#include "fabric/lldp_component.h"
#include "netlink/dcb_pfc.h"
#include "os/file_system.h"
#include "os/guarded_reader.h"
#include "os/host_paths.h"

namespace rocewatch {

struct LldpHostReaders {
  LldpComponent::MtuReader read_mtu;
  HostPfcReader read_pfc;  // null when `open_pfc` is
};

// `open_pfc` makes the PFC reader of a new reading thread (on the loop thread: its network
// namespace); null: the PFC is not read. REQUIRES: fs outlives the readers and every reading
// thread given up on.
LldpHostReaders GuardLldpHostReads(const FileSystem& fs, HostPaths paths,
                                   std::function<HostPfcReader()> open_pfc,
                                   GuardedReaderOptions options);

}  // namespace rocewatch
