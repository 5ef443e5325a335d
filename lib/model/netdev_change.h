#pragma once
// What happened to an RNIC netdev, as NetdevTracker (netlink/netdev_tracker.h) derives it from
// rtnetlink messages: the observations the netdev detectors (lib/features/netdev_health/) consume.

#include <string>

#include "core/clock.h"
#include "model/netdev.h"

namespace rocewatch {

// A change to an RNIC netdev (or to the routing policy), in the order it happened.
struct NetdevChange {
  enum class Kind {
    kAppeared,  // the netdev exists now (created, renamed to this name, or newly RNIC)
    kVanished,  // deleted, renamed away, or no longer RNIC
    kLink,      // flags, carrier, operstate or carrier counters changed
    kAddressAdded,
    kAddressRemoved,
    kRouting,  // a rule, or a route of an RNIC netdev, appeared or vanished
  };
  Kind kind = Kind::kLink;
  MonoTime at{};
  std::string netdev;  // "" for kRouting
  // The netdev after the change (before it, for kVanished). Its addresses are filled for
  // kAppeared only: every other change carries the link fields alone, so that an address storm on
  // a netdev with thousands of addresses costs O(1) per event, not a copy of the whole list.
  NetdevState state;
  IpAddress address;  // kAddressAdded / kAddressRemoved
};

const char* ChangeKindName(NetdevChange::Kind kind);

}  // namespace rocewatch
