#include "model/check_policy.h"

namespace rocewatch {
namespace {

constexpr Severity kInfo = Severity::kInfo;
constexpr Severity kWarning = Severity::kWarning;
constexpr Severity kCritical = Severity::kCritical;

constexpr std::string_view kDiagnoseOnly =
    "a check of diagnose (one-shot, at a terminal or as the node-problem-detector plugin): the "
    "daemon does not run it, so no metric carries it";

// Grouped by the room that produces them. A critical check's alert fires within 1 minute of the
// finding (`for:` <= 1m) and reaches PagerDuty (deploy/alertmanager/alertmanager.yml).
constexpr CheckPolicy kPolicies[] = {
    // RDMA devices (the inventory): a port that is gone explains every other finding of its rail.
    {"device_disappeared", kCritical, "RoceDeviceDisappeared",
     "the daemon holds it until the port returns or the rail plan no longer lists it "
     "(rocewatch_device_missing, diagnose, the NodeCondition); the alert pages the loss from "
     "Prometheus' memory of rocewatch_port_info and ends an hour after the port was last seen"},
    // GID tables (the daemon's GID drift component, diagnose's GID table checks).
    {"gid_drift", kCritical, "RoceGidDrift", ""},
    {"gid_index_mismatch", kCritical, "RoceGidIndexMismatch", ""},
    {"gid_table_hole", kWarning, "RoceGidHoles", ""},
    {"ipv4_without_roce_v2_gid", kCritical, "",
     "diagnose only; in the daemon the same loss is ip_missing_after_flap (RoceIpMissing) or "
     "gid_index_mismatch. On Kubernetes its NodeCondition is the page"},
    {"roce_v2_ipv4_gid_index_differs", kWarning, "RoceGidIndexInconsistent",
     "the alert compares every node of the cluster; the check the rails of one node"},
    {"ipv6_without_roce_v2_gid", kCritical, "",
     "diagnose only (the NodeCondition carries it); the daemon exports no IPv6 GID gauge"},
    // Links and addresses (netlink detectors).
    {"port_not_active", kWarning, "RoceLinkDown", "diagnose's view of the alert's port state"},
    {"netdev_carrier_down", kWarning, "RoceLinkDown", ""},
    {"rail_down_under_job", kCritical, "RoceRailDownUnderJob",
     "the traffic detector's: a rail whose link went down while a job held it (consumers "
     "present, or traffic in the 5 minutes before); the carrier loss alone is "
     "netdev_carrier_down (RoceLinkDown, a warning that pages nobody)"},
    {"link_flap", kInfo, "",
     "one flap is an event; link_flapping (RoceLinkFlapping) pages the pattern"},
    {"link_flapping", kWarning, "RoceLinkFlapping", ""},
    {"ip_lost_during_flap", kWarning, "RoceIpLostDuringFlap", ""},
    {"ip_missing_after_flap", kCritical, "RoceIpMissing", ""},
    {"policy_routing_missing", kCritical, "RocePolicyRulesMissing", ""},
    // Traffic.
    {"traffic_collapsed", kCritical, "RoceTrafficCollapsed", ""},
    {"traffic_node_stopped", kWarning, "RoceNodeTrafficStopped",
     "every rail stopped and no consumer is known to hold them: a node between jobs looks the "
     "same as a hung job, so it is not paged as a collapse"},
    {"traffic_degraded", kWarning, "RoceTrafficDegraded",
     "a drop reaches a human through PagerDuty at warning (low) urgency: its own route in "
     "alertmanager.yml; a full stop is traffic_collapsed (critical)"},
    // Link quality, PFC and optics (ethtool).
    {"link_quality_degraded", kWarning, "RoceLinkQualityDegraded", ""},
    {"link_quality_failing", kCritical, "RoceLinkQualityFailing", ""},
    {"link_down_reason", kWarning, "",
     "diagnose's explanation of a link that is down (RoceLinkDown pages the state)"},
    {"pfc_storm_tx", kWarning, "RocePfcStorm", ""},
    {"pfc_storm_rx", kWarning, "RocePfcStorm", ""},
    {"pfc_storm_driver", kWarning, "RocePfcStorm",
     "the NIC's own storm prevention already acted; a stall that stops traffic pages as "
     "traffic_collapsed"},
    {"optics_alarm", kWarning, "RoceOpticsOutOfRange",
     "the remedy is a cable or module swap at the next drain; a link that loses frames pages as "
     "link_quality_failing, one that goes down as RoceLinkDown and traffic_collapsed"},
    {"optics_lane_dark", kWarning, "RoceOpticsOutOfRange", "as optics_alarm"},
    {"optics_warning", kWarning, "",
     "beyond the module's warning (not alarm) threshold: a trend for dashboards "
     "(rocewatch_module_out_of_range{level=\"warning\"})"},
    {"optics_not_permitted", kWarning, "",
     "a deployment fault (the kernel refuses module reads without CAP_NET_ADMIN), not a link "
     "fault: the daemon's findings, diagnose and the NodeCondition carry it; it does not heal "
     "by itself and pages nobody"},
    // Reads that failed (a read is never a fact).
    {"read_failed", kWarning, "RocewatchSourceReadsFailing", ""},
    {"host_root_link_refused", kWarning, "",
     "diagnose only: a link in an untrusted tree (a bundle) that leaves its root is refused"},
    {"rail_address_missing", kCritical, "",
     "diagnose only, from the daemon's state file; in the daemon the same loss is "
     "ip_missing_after_flap (RoceIpMissing). On Kubernetes its NodeCondition is the page"},
    {"source_stalled", kWarning, "",
     "a read stuck in the kernel (a wedged driver): the rest of the node is still read and "
     "exported; rocewatch_source_stalled shows it; no alert "
     "rule reads it yet"},
    // The fabric (each rail's LLDP neighbor).
    {"lldp_neighbor_not_switch", kWarning, "",
     "a cabling fact for the operator who cables the rail; no fleet rule pages it yet"},
    {"lldp_shared_switch_port", kWarning, "", "as lldp_neighbor_not_switch"},
    {"switch_pfc_missing_roce_priority", kCritical, "RoceSwitchRoceNotLossless", ""},
    {"switch_pfc_differs_from_host", kCritical, "RoceSwitchPfcMismatch", ""},
    {"switch_max_frame_too_small", kWarning, "", "as lldp_neighbor_not_switch"},
    {"lldp_absent", kInfo, "", "many fabrics run no LLDP: never a page"},
    {"rail_miscabled", kCritical, "RoceRailMiscabled", ""},
    {"rail_layout_suspect", kWarning, "",
     "inferred without a rail plan, so it may be the fabric's own design: the findings, "
     "diagnose and the NodeCondition carry it; --rail-plan makes it exact (rail_miscabled)"},
    // Configuration checks of diagnose.
    {"network_manager_without_ignore_carrier", kWarning, "", kDiagnoseOnly},
    {"networkd_drops_addresses_on_carrier_loss", kWarning, "", kDiagnoseOnly},
    {"networkd_manages_foreign_policy_rules", kWarning, "", kDiagnoseOnly},
    {"ipv6_flushed_on_link_down", kWarning, "", kDiagnoseOnly},
    {"configured_address_missing", kCritical, "",
     "diagnose only: the network configuration is read at the terminal or by the "
     "node-problem-detector plugin, whose NodeCondition is the page; in the daemon the same loss "
     "is ip_missing_after_flap (RoceIpMissing)"},
    {"nccl_gid_index_without_roce_v2_gid", kCritical, "",
     "diagnose only: the job's settings are read from /proc at the terminal or by the "
     "node-problem-detector plugin, whose NodeCondition is the page"},
    {"nccl_gid_index_empty", kWarning, "", kDiagnoseOnly},
    {"nccl_timeout_below_flap", kWarning, "", kDiagnoseOnly},
    {"nccl_timeout_default", kInfo, "", kDiagnoseOnly},
    {"nccl_timeout_unset_version_unknown", kWarning, "", kDiagnoseOnly},
    {"nccl_hca_absent_device", kWarning, "", kDiagnoseOnly},
    {"nccl_invalid_setting", kWarning, "", kDiagnoseOnly},
    {"nccl_environment_unreadable", kInfo, "", kDiagnoseOnly},
    {"link_error_counters_rising", kWarning, "RoceErrorCountersRising", ""},
    {"adaptive_retransmission_counters_absent", kInfo, "", kDiagnoseOnly},
    // diagnose's notes about the daemon it asked.
    {"daemon", kInfo, "", "which daemon diagnose merged"},
    {"daemon_unreachable", kInfo, "", "RocewatchDown pages a daemon that is down"},
    {"daemon_other_host", kInfo, "", "a note about diagnose's own flags"},
};

}  // namespace

std::span<const CheckPolicy> CheckPolicies() { return kPolicies; }

const CheckPolicy* FindCheckPolicy(std::string_view check) {
  for (const CheckPolicy& policy : kPolicies)
    if (policy.check == check) return &policy;
  return nullptr;
}

Severity SeverityOf(std::string_view check) {
  const CheckPolicy* policy = FindCheckPolicy(check);
  return policy ? policy->severity : Severity::kWarning;
}

}  // namespace rocewatch
