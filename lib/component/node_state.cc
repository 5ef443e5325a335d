#include "component/node_state.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace rocewatch {

std::string_view StatePartName(StatePart part) {
  switch (part) {
    case StatePart::kSnapshot:
      return "snapshot";
    case StatePart::kRnicNetdevs:
      return "rnic_netdevs";
    case StatePart::kNetdevLinks:
      return "netdev_links";
    case StatePart::kConsumers:
      return "consumers";
    case StatePart::kTrafficUnexplained:
      return "traffic_unexplained";
    case StatePart::kConsumerScanRequest:
      return "consumer_scan_request";
    case StatePart::kLinkDownReasons:
      return "link_down_reasons";
    case StatePart::kRestoredIncidents:
      return "restored_incidents";
    case StatePart::kNetdevIncidents:
      return "netdev_incidents";
    case StatePart::kRailIncidents:
      return "rail_incidents";
    case StatePart::kFarEnds:
      return "far_ends";
    case StatePart::kLinkVerdicts:
      return "link_verdicts";
    case StatePart::kSeenPorts:
      return "seen_ports";
  }
  return "unknown";
}

NodeStateView::NodeStateView(const NodeState& state, StateDeclaration declaration,
                             std::string component)
    : state_(state), declaration_(declaration), component_(std::move(component)) {}

bool NodeStateView::MayRead(StatePart part) const {
  if (declaration_.MayRead(part)) return true;
  ++refused_;
  const size_t bit = static_cast<size_t>(part);
  if (!logged_.test(bit)) {
    logged_.set(bit);
    spdlog::error("component {} read node state part {} it did not declare; refused", component_,
                  StatePartName(part));
  }
  return false;
}

const NodeSnapshot* NodeStateView::snapshot() const {
  return MayRead(StatePart::kSnapshot) ? &state_.snapshot : nullptr;
}

const std::set<std::string>* NodeStateView::rnic_netdevs() const {
  return MayRead(StatePart::kRnicNetdevs) ? &state_.rnic_netdevs : nullptr;
}

const std::map<std::string, NetdevState>* NodeStateView::netdev_links() const {
  return MayRead(StatePart::kNetdevLinks) ? &state_.netdev_links : nullptr;
}

const std::optional<ConsumerObservation>* NodeStateView::consumers() const {
  return MayRead(StatePart::kConsumers) ? &state_.consumers : nullptr;
}

const std::set<std::string>* NodeStateView::traffic_unexplained() const {
  return MayRead(StatePart::kTrafficUnexplained) ? &state_.traffic_unexplained : nullptr;
}

const bool* NodeStateView::consumer_scan_requested() const {
  return MayRead(StatePart::kConsumerScanRequest) ? &state_.consumer_scan_requested : nullptr;
}

LinkDownReasonSource* NodeStateView::link_down_reasons() const {
  return MayRead(StatePart::kLinkDownReasons) ? state_.link_down_reasons : nullptr;
}

const std::optional<RestoredIncidents>* NodeStateView::restored_incidents() const {
  return MayRead(StatePart::kRestoredIncidents) ? &state_.restored_incidents : nullptr;
}

const KeptNetdevIncidents* NodeStateView::netdev_incidents() const {
  return MayRead(StatePart::kNetdevIncidents) ? &state_.netdev_incidents : nullptr;
}

const KeptRailIncidents* NodeStateView::rail_incidents() const {
  return MayRead(StatePart::kRailIncidents) ? &state_.rail_incidents : nullptr;
}

const std::map<std::string, PersistedFarEnd>* NodeStateView::far_ends() const {
  return MayRead(StatePart::kFarEnds) ? &state_.far_ends : nullptr;
}

const PersistedLinkVerdicts* NodeStateView::link_verdicts() const {
  return MayRead(StatePart::kLinkVerdicts) ? &state_.link_verdicts : nullptr;
}

const KeptSeenPorts* NodeStateView::seen_ports() const {
  return MayRead(StatePart::kSeenPorts) ? &state_.seen_ports : nullptr;
}

NodeStateWriter::NodeStateWriter(NodeState& state, StateParts provides, std::string component)
    : state_(state), provides_(provides), component_(std::move(component)) {}

Status NodeStateWriter::MayWrite(StatePart part) const {
  if (provides_.Has(part)) return Status::Ok();
  std::string what = "component " + component_ + " wrote node state part " +
                     std::string(StatePartName(part)) + " it does not provide; refused";
  spdlog::error("{}", what);
  return Status::PermissionDenied(std::move(what));
}

template <typename T, typename V>
Status NodeStateWriter::Write(StatePart part, T NodeState::*member, V&& value) {
  Status may = MayWrite(part);
  if (may.ok()) state_.*member = std::forward<V>(value);
  return may;
}

Status NodeStateWriter::SetNetdevLinks(std::map<std::string, NetdevState> links) {
  return Write(StatePart::kNetdevLinks, &NodeState::netdev_links, std::move(links));
}

Status NodeStateWriter::SetConsumers(ConsumerObservation observation) {
  return Write(StatePart::kConsumers, &NodeState::consumers, std::move(observation));
}

Status NodeStateWriter::SetTrafficUnexplained(std::set<std::string> devices) {
  return Write(StatePart::kTrafficUnexplained, &NodeState::traffic_unexplained, std::move(devices));
}

Status NodeStateWriter::SetConsumerScanRequested(bool requested) {
  return Write(StatePart::kConsumerScanRequest, &NodeState::consumer_scan_requested, requested);
}

Status NodeStateWriter::SetLinkDownReasons(LinkDownReasonSource* source) {
  return Write(StatePart::kLinkDownReasons, &NodeState::link_down_reasons, source);
}

Status NodeStateWriter::SetRestoredIncidents(std::optional<RestoredIncidents> restored) {
  return Write(StatePart::kRestoredIncidents, &NodeState::restored_incidents, std::move(restored));
}

Status NodeStateWriter::SetNetdevIncidents(KeptNetdevIncidents incidents) {
  return Write(StatePart::kNetdevIncidents, &NodeState::netdev_incidents, std::move(incidents));
}

Status NodeStateWriter::SetRailIncidents(KeptRailIncidents incidents) {
  return Write(StatePart::kRailIncidents, &NodeState::rail_incidents, std::move(incidents));
}

Status NodeStateWriter::SetFarEnds(std::map<std::string, PersistedFarEnd> far_ends) {
  return Write(StatePart::kFarEnds, &NodeState::far_ends, std::move(far_ends));
}

Status NodeStateWriter::SetLinkVerdicts(PersistedLinkVerdicts verdicts) {
  return Write(StatePart::kLinkVerdicts, &NodeState::link_verdicts, std::move(verdicts));
}

Status NodeStateWriter::SetSeenPorts(KeptSeenPorts ports) {
  return Write(StatePart::kSeenPorts, &NodeState::seen_ports, std::move(ports));
}

ConsumerKnowledge EffectiveKnowledgeOf(const std::optional<ConsumerObservation>* consumers,
                                       const std::set<std::string>* traffic_unexplained,
                                       const std::string& device) {
  const ConsumerKnowledge known =
      consumers && *consumers ? (*consumers)->KnowledgeOf(device) : ConsumerKnowledge::kUnknown;
  const bool unexplained = traffic_unexplained && traffic_unexplained->count(device) > 0;
  return known == ConsumerKnowledge::kNone && unexplained ? ConsumerKnowledge::kUnknown : known;
}

std::string DescribeEffectiveConsumers(const std::optional<ConsumerObservation>* consumers,
                                       const std::set<std::string>* traffic_unexplained,
                                       const std::string& device) {
  const bool sources_know = consumers && *consumers;
  const ConsumerKnowledge known =
      sources_know ? (*consumers)->KnowledgeOf(device) : ConsumerKnowledge::kUnknown;
  if (EffectiveKnowledgeOf(consumers, traffic_unexplained, device) == known)
    return sources_know ? (*consumers)->DescribeConsumers(device) : "unknown";
  return "unknown (traffic that no process holds: a kernel RDMA user such as NFS over RDMA or "
         "NVMe-oF, or a consumer not seen yet)";
}

}  // namespace rocewatch
