// Must not compile: lib/netlink (layer sources) may not see lib/app (layer app).
// Built only by check_layering.sh.
#include "app/monitor.h"
#include "netlink/netdev_tracker.h"
