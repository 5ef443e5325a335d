#pragma once
// The one state the daemon's components share: typed parts, each written by one provider (the
// Monitor or one component), read by the components that declare reading it. A component states
// its contract in MonitorComponent::declaration(); the Monitor orders the components by those
// declarations (component/component_order.h) and gives each one a NodeStateView that only shows
// what it declared reading and a NodeStateWriter that only writes what it declared providing.
// Nothing else is shared between components: no mutable map, no shared object, no call from one
// into another, no reliance on the order they were registered in.
//
// Threading: the event-loop thread only.

#include <bitset>
#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "core/status.h"
#include "model/netdev.h"
#include "model/node.h"
#include "model/open_incidents.h"
#include "model/rail_consumer.h"

namespace rocewatch {

enum class StatePart {
  // The Monitor's: the latest snapshot (empty before the first poll).
  kSnapshot,
  // The Monitor's: the netdevs the RDMA inventory ties to ports (port netdevs and GID ndevs,
  // VLAN and bond uppers), from the latest snapshot.
  kRnicNetdevs,
  // The netlink component's: the live state (carrier, addresses, ...) of the RNIC netdevs, kept
  // current between polls as netlink events arrive.
  kNetdevLinks,
  // The consumers component's: who holds each RDMA device (nullopt before the first scan).
  kConsumers,
  // The traffic component's: devices that carry traffic while the consumer sources say nobody
  // holds them (a kernel RDMA user, or a consumer a scan has not seen).
  kTrafficUnexplained,
  // The traffic component's: whether its last judged poll asked for a full consumer scan.
  kConsumerScanRequest,
  // The ethtool component's: a service, not a value (LinkDownReasonSource below).
  kLinkDownReasons,
  // The GID drift component's (it owns the state file): the previous run's open incidents, from a
  // usable file of this boot, set at its Start and withdrawn after the first poll. Each feature
  // reads it at its own Start (or first snapshot) and resumes its part.
  kRestoredIncidents,
  // Each feature's open incidents in the state file's vocabulary (model/open_incidents.h), kept
  // current by its provider at each of its snapshots, and at its Stop where they change between
  // polls (netlink events, LLDP frames); the GID drift component writes them to the state file
  // after every poll and at its Stop. The netlink component's:
  kNetdevIncidents,
  // The traffic component's.
  kRailIncidents,
  // The LLDP component's: each rail's last far end.
  kFarEnds,
  // The ethtool component's: the link-quality and PFC-storm verdicts.
  kLinkVerdicts,
  // The device presence component's: every RDMA port seen on this boot, and the missing ones.
  kSeenPorts,
};
inline constexpr size_t kStatePartCount = 13;

// "netdev_links", ... (for the Monitor's errors and logs).
std::string_view StatePartName(StatePart part);

// Why a netdev's link is down ("bad signal integrity (...)", "" when unknown). Asked when a
// carrier-down event is reported, between polls: a service the ethtool component provides on the
// node state, so that the netlink component (whose links the ethtool component reads) never calls
// into it directly.
class LinkDownReasonSource {
 public:
  virtual ~LinkDownReasonSource() = default;
  virtual std::string LinkDownReason(const std::string& netdev) = 0;
};

// A set of parts.
class StateParts {
 public:
  StateParts() = default;
  StateParts(std::initializer_list<StatePart> parts) {
    for (StatePart part : parts) Add(part);
  }
  void Add(StatePart part) { bits_.set(static_cast<size_t>(part)); }
  bool Has(StatePart part) const { return bits_.test(static_cast<size_t>(part)); }
  bool empty() const { return bits_.none(); }

 private:
  std::bitset<kStatePartCount> bits_;
};

// What a component writes and reads of the node state.
struct StateDeclaration {
  // Parts only this component writes. It may read them too.
  StateParts provides;
  // Parts it needs as of this poll: their providers' OnSnapshot runs before its own.
  StateParts reads;
  // Parts it reads without needing this poll's value (in its OnSnapshot they may still hold the
  // previous poll's): no ordering. This is how a feedback loop is declared, e.g. the consumers
  // component acting on the full scan the traffic component asked for at the poll before. Also
  // for what is only read outside OnSnapshot (AppendMetrics, an event between polls).
  StateParts reads_previous;

  bool MayRead(StatePart part) const {
    return provides.Has(part) || reads.Has(part) || reads_previous.Has(part);
  }
};

// The parts. Owned by the Monitor; components see it only through a view and a writer.
struct NodeState {
  NodeSnapshot snapshot;
  std::set<std::string> rnic_netdevs;
  std::map<std::string, NetdevState> netdev_links;
  std::optional<ConsumerObservation> consumers;
  std::set<std::string> traffic_unexplained;
  bool consumer_scan_requested = false;
  LinkDownReasonSource* link_down_reasons = nullptr;
  std::optional<RestoredIncidents> restored_incidents;
  KeptNetdevIncidents netdev_incidents;
  KeptRailIncidents rail_incidents;
  std::map<std::string, PersistedFarEnd> far_ends;
  PersistedLinkVerdicts link_verdicts;
  KeptSeenPorts seen_ports;
};

// A component's reading of the node state: each accessor gives its part, or nullptr (logged once
// per part, and counted in refused()) when the component did not declare reading it.
class NodeStateView {
 public:
  // REQUIRES: state outlives the view.
  NodeStateView(const NodeState& state, StateDeclaration declaration, std::string component);

  const NodeSnapshot* snapshot() const;
  const std::set<std::string>* rnic_netdevs() const;
  const std::map<std::string, NetdevState>* netdev_links() const;
  const std::optional<ConsumerObservation>* consumers() const;
  const std::set<std::string>* traffic_unexplained() const;
  const bool* consumer_scan_requested() const;
  // nullptr also while the provider has not set it (or stopped).
  LinkDownReasonSource* link_down_reasons() const;
  const std::optional<RestoredIncidents>* restored_incidents() const;
  const KeptNetdevIncidents* netdev_incidents() const;
  const KeptRailIncidents* rail_incidents() const;
  const std::map<std::string, PersistedFarEnd>* far_ends() const;
  const PersistedLinkVerdicts* link_verdicts() const;
  const KeptSeenPorts* seen_ports() const;

  const StateDeclaration& declaration() const { return declaration_; }
  // Reads refused so far (undeclared parts).
  size_t refused() const { return refused_; }

 private:
  bool MayRead(StatePart part) const;

  const NodeState& state_;
  StateDeclaration declaration_;
  std::string component_;
  mutable std::bitset<kStatePartCount> logged_;
  mutable size_t refused_ = 0;
};

// A component's writing of the node state: each setter writes its part if the component declared
// providing it, and is refused (PermissionDenied, logged) otherwise.
class NodeStateWriter {
 public:
  // REQUIRES: state outlives the writer.
  NodeStateWriter(NodeState& state, StateParts provides, std::string component);

  Status SetNetdevLinks(std::map<std::string, NetdevState> links);
  Status SetConsumers(ConsumerObservation observation);
  Status SetTrafficUnexplained(std::set<std::string> devices);
  Status SetConsumerScanRequested(bool requested);
  // nullptr withdraws the service. REQUIRES: source outlives its setting.
  Status SetLinkDownReasons(LinkDownReasonSource* source);
  Status SetRestoredIncidents(std::optional<RestoredIncidents> restored);
  Status SetNetdevIncidents(KeptNetdevIncidents incidents);
  Status SetRailIncidents(KeptRailIncidents incidents);
  Status SetFarEnds(std::map<std::string, PersistedFarEnd> far_ends);
  Status SetLinkVerdicts(PersistedLinkVerdicts verdicts);
  Status SetSeenPorts(KeptSeenPorts ports);

 private:
  Status MayWrite(StatePart part) const;
  // Writes `value` into the member of `part` if the component provides it.
  template <typename T, typename V>
  Status Write(StatePart part, T NodeState::*member, V&& value);

  NodeState& state_;
  StateParts provides_;
  std::string component_;
};

// What the daemon reports of a device's consumers: the consumer sources' knowledge, except that
// kNone on a device whose traffic no holder explains (kTrafficUnexplained) is kUnknown. Either
// part may be null (not read): the sources' knowledge, or unknown without an observation.
ConsumerKnowledge EffectiveKnowledgeOf(const std::optional<ConsumerObservation>* consumers,
                                       const std::set<std::string>* traffic_unexplained,
                                       const std::string& device);
// ConsumerObservation::DescribeConsumers ("unknown" without an observation), saying so where
// traffic proves a consumer nobody is seen holding.
std::string DescribeEffectiveConsumers(const std::optional<ConsumerObservation>* consumers,
                                       const std::set<std::string>* traffic_unexplained,
                                       const std::string& device);

}  // namespace rocewatch
