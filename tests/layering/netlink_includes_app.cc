// Must not compile: lib/sources/netlink (layer sources) may not see lib/daemon (layer daemon).
// Built only by check_layering.sh.
#include "daemon/monitor.h"
#include "netlink/netdev_tracker.h"
