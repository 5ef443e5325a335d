// Must not compile: lib/sources/sysfs does not declare that it uses lib/sources/netlink (both
// in layer sources).
// Built only by check_layering.sh.
#include "netlink/netdev_tracker.h"
#include "sysfs/sysfs_inventory.h"
