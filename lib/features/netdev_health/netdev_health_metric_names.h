#pragma once
// The names of every metric family this room exports: one spelling each, for the exporter, the
// diagnose reader (a daemon's exposition read back) and the tests. Part of the public contract
// (docs/metrics.md); tests/lint/metric_names_once.sh refuses a name spelled anywhere else.

namespace rocewatch {

inline constexpr char kIpLostDuringFlapTotalMetric[] = "rocewatch_ip_lost_during_flap_total";
inline constexpr char kIpMissingMetric[] = "rocewatch_ip_missing";
inline constexpr char kIpMissingAddressInfoMetric[] = "rocewatch_ip_missing_address_info";
inline constexpr char kLinkFlapsTotalMetric[] = "rocewatch_link_flaps_total";
inline constexpr char kNetdevAddressesMetric[] = "rocewatch_netdev_addresses";
inline constexpr char kNetdevCarrierMetric[] = "rocewatch_netdev_carrier";
inline constexpr char kNetdevCarrierChangesTotalMetric[] = "rocewatch_netdev_carrier_changes_total";
inline constexpr char kNetlinkResyncsTotalMetric[] = "rocewatch_netlink_resyncs_total";
inline constexpr char kPolicyRoutesMissingMetric[] = "rocewatch_policy_routes_missing";
inline constexpr char kPolicyRulesMissingMetric[] = "rocewatch_policy_rules_missing";

}  // namespace rocewatch
