#include "netdev_health/netdev_metrics.h"

#include "netdev_health/netdev_health_metric_names.h"

namespace rocewatch {
namespace {

constexpr const char* kCarrier = kNetdevCarrierMetric;
constexpr const char* kFlaps = kLinkFlapsTotalMetric;
constexpr const char* kCarrierChanges = kNetdevCarrierChangesTotalMetric;
constexpr const char* kIpLost = kIpLostDuringFlapTotalMetric;
constexpr const char* kAddresses = kNetdevAddressesMetric;
constexpr const char* kIpMissing = kIpMissingMetric;
constexpr const char* kIpMissingAddress = kIpMissingAddressInfoMetric;
constexpr const char* kRulesMissing = kPolicyRulesMissingMetric;
constexpr const char* kRoutesMissing = kPolicyRoutesMissingMetric;
constexpr const char* kResyncs = kNetlinkResyncsTotalMetric;

constexpr const char* kCarrierHelp = "1 if the RNIC netdev has carrier, 0 if not";
constexpr const char* kFlapsHelp = "Carrier-down episodes observed on an RNIC netdev";
constexpr const char* kCarrierChangesHelp =
    "The kernel's carrier change count of the netdev (IFLA_CARRIER_CHANGES)";
constexpr const char* kIpLostHelp = "Addresses removed from an RNIC netdev during a link flap";
constexpr const char* kAddressesHelp = "Current addresses of the RNIC netdev by family";
constexpr const char* kIpMissingHelp =
    "1 while an address the netdev had before a flap is still absent after it";
constexpr const char* kIpMissingAddressHelp =
    "One per address a netdev had before a flap that is still absent after it (address with "
    "prefix length); 1";
constexpr const char* kRulesMissingHelp =
    "Policy rules of the netdev's addresses that vanished while the address stayed";
constexpr const char* kRoutesMissingHelp =
    "Routes of the netdev's policy tables that vanished while its address stayed";
constexpr const char* kResyncsHelp = "Full rtnetlink re-dumps after a receive overrun";

}  // namespace

void AppendNetdevMetrics(const NetlinkListener& listener, MetricFamilies& out) {
  using prometheus::MetricType;
  out.Declare(kCarrier, kCarrierHelp, MetricType::Gauge);
  out.Declare(kFlaps, kFlapsHelp, MetricType::Counter);
  out.Declare(kCarrierChanges, kCarrierChangesHelp, MetricType::Counter);
  out.Declare(kIpLost, kIpLostHelp, MetricType::Counter);
  out.Declare(kAddresses, kAddressesHelp, MetricType::Gauge);
  out.Declare(kIpMissing, kIpMissingHelp, MetricType::Gauge);
  out.Declare(kIpMissingAddress, kIpMissingAddressHelp, MetricType::Gauge);
  out.Declare(kRulesMissing, kRulesMissingHelp, MetricType::Gauge);
  out.Declare(kRoutesMissing, kRoutesMissingHelp, MetricType::Gauge);
  out.Counter(kResyncs, kResyncsHelp, {}, static_cast<double>(listener.resyncs()));

  const NetdevHealth& health = listener.health();
  for (const auto& [name, state] : listener.tracker().RnicStates()) {
    const Labels netdev = {{"netdev", name}};
    out.Gauge(kCarrier, kCarrierHelp, netdev, state.carrier ? 1 : 0);
    out.Counter(kCarrierChanges, kCarrierChangesHelp, netdev,
                static_cast<double>(state.carrier_changes));
    int ipv4 = 0, ipv6 = 0;
    for (const IpAddress& a : state.addresses) (a.family == AddressFamily::kIpv4 ? ipv4 : ipv6)++;
    out.Gauge(kAddresses, kAddressesHelp, {{"netdev", name}, {"family", "ipv4"}}, ipv4);
    out.Gauge(kAddresses, kAddressesHelp, {{"netdev", name}, {"family", "ipv6"}}, ipv6);

    const auto* flaps = health.flaps().Find(name);
    out.Counter(kFlaps, kFlapsHelp, netdev,
                flaps != nullptr ? static_cast<double>(flaps->flaps_total) : 0);
    const auto* ips = health.ip_loss().Find(name);
    out.Counter(kIpLost, kIpLostHelp, netdev,
                ips != nullptr ? static_cast<double>(ips->ip_lost_total) : 0);
    out.Gauge(kIpMissing, kIpMissingHelp, netdev, ips != nullptr && !ips->missing.empty() ? 1 : 0);
    if (ips != nullptr)
      for (const auto& [address, since] : ips->missing)
        out.Gauge(kIpMissingAddress, kIpMissingAddressHelp,
                  {{"netdev", name}, {"address", address.ToString()}}, 1);
    const auto* policy = health.policy().Find(name);
    out.Gauge(kRulesMissing, kRulesMissingHelp, netdev,
              policy != nullptr ? static_cast<double>(policy->missing_rules.size()) : 0);
    out.Gauge(kRoutesMissing, kRoutesMissingHelp, netdev,
              policy != nullptr ? static_cast<double>(policy->missing_routes.size()) : 0);
  }
}

}  // namespace rocewatch
