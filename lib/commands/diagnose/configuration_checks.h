#pragma once
// The configuration risk checks of `rocewatch diagnose` (docs/diagnose.md): pure
// functions from observations (node snapshot, netdev states, host network configuration, NCCL
// settings of running processes, policy rules) to findings with a stable check id, evidence and
// a remedy. No I/O here: ReadConfigurationFacts (configuration_facts.h) gathers the inputs.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/clock.h"
#include "hostconfig/host_network_config.h"
#include "model/finding.h"
#include "model/netdev.h"
#include "model/node.h"
#include "model/policy_rule.h"
#include "nccl/nccl_process_scan.h"

namespace rocewatch {

// Stable check ids (the JSON's "check"); each is documented in docs/diagnose.md.
namespace check_id {
inline constexpr char kNetworkManagerWithoutIgnoreCarrier[] =
    "network_manager_without_ignore_carrier";
inline constexpr char kNetworkdDropsAddressesOnCarrierLoss[] =
    "networkd_drops_addresses_on_carrier_loss";
inline constexpr char kNetworkdManagesForeignPolicyRules[] =
    "networkd_manages_foreign_policy_rules";
inline constexpr char kIpv6FlushedOnLinkDown[] = "ipv6_flushed_on_link_down";
inline constexpr char kNcclGidIndexWithoutRoceV2Gid[] = "nccl_gid_index_without_roce_v2_gid";
inline constexpr char kNcclTimeoutBelowFlap[] = "nccl_timeout_below_flap";
inline constexpr char kNcclTimeoutDefault[] = "nccl_timeout_default";
inline constexpr char kNcclTimeoutUnsetVersionUnknown[] = "nccl_timeout_unset_version_unknown";
inline constexpr char kNcclGidIndexEmpty[] = "nccl_gid_index_empty";
inline constexpr char kNcclHcaAbsentDevice[] = "nccl_hca_absent_device";
inline constexpr char kNcclInvalidSetting[] = "nccl_invalid_setting";
inline constexpr char kNcclEnvironmentUnreadable[] = "nccl_environment_unreadable";
inline constexpr char kRoceV2Ipv4GidIndexDiffers[] = "roce_v2_ipv4_gid_index_differs";
inline constexpr char kIpv6WithoutRoceV2Gid[] = "ipv6_without_roce_v2_gid";
inline constexpr char kLinkErrorCountersRising[] = "link_error_counters_rising";
inline constexpr char kAdaptiveRetransmissionCountersAbsent[] =
    "adaptive_retransmission_counters_absent";
}  // namespace check_id

struct ConfigurationCheckInput {
  // REQUIRED: the node as observed now. Its RoCE ports' netdevs are the RNIC netdevs.
  const NodeSnapshot* snapshot = nullptr;
  // An earlier snapshot (diagnose --watch: the first one); counter checks need it. Optional.
  const NodeSnapshot* earlier = nullptr;
  // Live netdev states by name (addresses, carrier). Netdevs missing here have no addresses.
  const std::map<std::string, NetdevState>* netdevs = nullptr;
  // Host configuration of the RNIC netdevs. Optional: the manager checks need it.
  const HostNetworkConfig* host = nullptr;
  // NCCL settings of running processes. Optional: the NCCL checks need it.
  const NcclProcessScan* nccl = nullptr;
  // Policy rules of the host (at least those tied to the RNIC netdevs); the foreign-rules check
  // only runs when they are known.
  const std::vector<PolicyRule>* policy_rules = nullptr;
  // The outage a configuration must ride out: "a flap of a few seconds" (half of the short
  // flaps of the public GID-drift incident report recovered within seconds) plus link training.
  // Carrier-loss grace periods and NCCL's retransmission budget are compared with it.
  Duration flap_ride_through = std::chrono::seconds(10);
};

// Every check whose inputs are present, findings in a stable order (by check group, then
// subject).
std::vector<Finding> RunConfigurationChecks(const ConfigurationCheckInput& input);

// NCCL's retransmission budget: an ACK timeout of 4.096 us * 2^timeout, retried retry_count
// times (the InfiniBand local ACK timeout). timeout 0 means "wait forever" in the IB spec: nullopt.
std::optional<Duration> NcclSurvivableOutage(long long timeout, long long retry_count);

}  // namespace rocewatch
