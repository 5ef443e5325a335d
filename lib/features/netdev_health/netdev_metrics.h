#pragma once
// The netdev metrics of docs/metrics.md (and the policy-routing ones of docs/netlink.md), built
// from a NetlinkListener's state. Cheap: no I/O.

#include "export/metric_families.h"
#include "netdev_health/netlink_listener.h"

namespace rocewatch {

// rocewatch_netdev_carrier, rocewatch_link_flaps_total, rocewatch_netdev_carrier_changes_total,
// rocewatch_ip_lost_during_flap_total, rocewatch_netdev_addresses{family}, rocewatch_ip_missing,
// rocewatch_ip_missing_address_info{netdev,address}, rocewatch_policy_rules_missing,
// rocewatch_policy_routes_missing (each per RNIC netdev) and rocewatch_netlink_resyncs_total.
// Families are declared even when there is no RNIC netdev.
void AppendNetdevMetrics(const NetlinkListener& listener, MetricFamilies& out);

}  // namespace rocewatch
