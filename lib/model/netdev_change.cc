#include "model/netdev_change.h"

namespace rocewatch {

const char* ChangeKindName(NetdevChange::Kind kind) {
  switch (kind) {
    case NetdevChange::Kind::kAppeared:
      return "appeared";
    case NetdevChange::Kind::kVanished:
      return "vanished";
    case NetdevChange::Kind::kLink:
      return "link";
    case NetdevChange::Kind::kAddressAdded:
      return "address_added";
    case NetdevChange::Kind::kAddressRemoved:
      return "address_removed";
    case NetdevChange::Kind::kRouting:
      return "routing";
  }
  return "unknown";
}

}  // namespace rocewatch
