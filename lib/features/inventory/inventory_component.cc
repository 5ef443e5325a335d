#include "inventory/inventory_component.h"

#include <spdlog/spdlog.h>

#include "inventory/inventory_metric_names.h"
#include "inventory/read_failure_checks.h"

namespace rocewatch {

namespace {

bool IsByteCounter(const std::string& name) {
  return name == "port_xmit_data" || name == "port_rcv_data";
}

// Same keys, same values except for the byte counters, whose values may differ.
bool SameCountersButBytes(const std::map<std::string, uint64_t>& a,
                          const std::map<std::string, uint64_t>& b) {
  if (a.size() != b.size()) return false;
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j) {
    if (i->first != j->first) return false;
    if (i->second != j->second && !IsByteCounter(i->first)) return false;
  }
  return true;
}

bool SamePortButBytes(const Port& a, const Port& b) {
  return a.number == b.number && a.state == b.state && a.phys_state == b.phys_state &&
         a.link_layer == b.link_layer && a.rate == b.rate && a.gid_table_len == b.gid_table_len &&
         a.netdevs == b.netdevs && a.gids == b.gids &&
         a.counters.transmit_bytes.has_value() == b.counters.transmit_bytes.has_value() &&
         a.counters.receive_bytes.has_value() == b.counters.receive_bytes.has_value() &&
         a.counters.hw_counters == b.counters.hw_counters &&
         SameCountersButBytes(a.counters.counters, b.counters.counters);
}

// Builds the families of `snapshot` into `out`.
void BuildInventoryFamilies(const NodeSnapshot& snapshot, MetricFamilies& out) {
  out.Declare(kPortInfoMetric, "One per RDMA port: its link layer and netdev.",
              prometheus::MetricType::Gauge);
  out.Declare(kGidInfoMetric, "One per valid GID table entry.", prometheus::MetricType::Gauge);
  out.Gauge(kRdmaDevicesMetric, "RDMA devices found on this node.", {},
            static_cast<double>(snapshot.devices.size()));
  for (const Device& device : snapshot.devices) {
    for (const Port& port : device.ports) {
      const std::string port_label = std::to_string(port.number);
      const Labels port_labels = {{"device", device.name}, {"port", port_label}};
      out.Gauge(kPortInfoMetric, "",
                {{"device", device.name},
                 {"port", port_label},
                 {"link_layer", port.link_layer},
                 {"netdev", PrimaryNetdev(port)}},
                1);
      // A state that could not be read is unknown: no sample, rather than a 0 that pages
      // RoceLinkDown for a failed read (read_failed and RocewatchSourceReadsFailing say it).
      if (!port.AttributeUnreadable("state"))
        out.Gauge(kPortActiveMetric,
                  "1 if the port state is ACTIVE, else 0; absent while the state cannot be read.",
                  port_labels, port.IsActive() ? 1 : 0);
      for (const GidEntry& gid : port.gids) {
        out.Gauge(kGidInfoMetric, "",
                  {{"device", device.name},
                   {"port", port_label},
                   {"index", std::to_string(gid.index)},
                   {"gid", gid.gid},
                   {"type", GidTypeLabel(gid.type)},
                   {"netdev", gid.netdev}},
                  1);
      }
      const PortCounters& counters = port.counters;
      if (counters.transmit_bytes) {
        out.Counter(kPortTransmitBytesMetric,
                    "Bytes transmitted by the port (sysfs port_xmit_data x 4; RoCE traffic only "
                    "on mlx5).",
                    port_labels, static_cast<double>(*counters.transmit_bytes));
      }
      if (counters.receive_bytes) {
        out.Counter(kPortReceiveBytesMetric,
                    "Bytes received by the port (sysfs port_rcv_data x 4; RoCE traffic only on "
                    "mlx5).",
                    port_labels, static_cast<double>(*counters.receive_bytes));
      }
      // One unit per family (promtool check metrics): the data counters are the bytes metrics
      // above, port_xmit_wait counts ticks, everything else in counters/ counts packets or
      // events. Kernel widths vary (link_downed is 8 bits, symbol_error 16, most others 32 or
      // 64) and the narrow ones saturate: docs/metrics.md.
      for (const auto& [name, value] : counters.counters) {
        if (name == "port_xmit_data" || name == "port_rcv_data") continue;
        if (name == "port_xmit_wait") {
          out.Counter(kPortTransmitWaitTicksTotalMetric,
                      "Ticks during which the port had data to send but no credits (sysfs "
                      "counters/port_xmit_wait).",
                      port_labels, static_cast<double>(value));
          continue;
        }
        out.Counter(kPortEventsTotalMetric,
                    "Packets and error events of the port: every numeric file of its counters/ "
                    "directory but the data counters and port_xmit_wait, raw.",
                    {{"device", device.name}, {"port", port_label}, {"counter", name}},
                    static_cast<double>(value));
      }
      for (const auto& [name, value] : counters.hw_counters) {
        out.Counter(kPortHwEventsTotalMetric,
                    "Driver event counts of the port: every file of its hw_counters/ directory "
                    "except settings such as lifespan.",
                    {{"device", device.name}, {"port", port_label}, {"counter", name}},
                    static_cast<double>(value));
      }
    }
  }
}

// The family named `name` in `families`, or null.
prometheus::MetricFamily* FindFamily(std::vector<prometheus::MetricFamily>& families,
                                     const char* name) {
  for (prometheus::MetricFamily& family : families)
    if (family.name == name) return &family;
  return nullptr;
}

}  // namespace

bool SameButByteCounters(const NodeSnapshot& a, const NodeSnapshot& b) {
  if (a.devices.size() != b.devices.size()) return false;
  for (size_t d = 0; d < a.devices.size(); ++d) {
    const Device& x = a.devices[d];
    const Device& y = b.devices[d];
    if (x.name != y.name || x.ports.size() != y.ports.size()) return false;
    for (size_t p = 0; p < x.ports.size(); ++p)
      if (!SamePortButBytes(x.ports[p], y.ports[p])) return false;
  }
  return true;
}

void InventoryComponent::PatchByteCounters(const NodeSnapshot& snapshot) const {
  // Samples were built in snapshot order (devices, ports, counter names), so the n-th port with
  // a transmit counter is the n-th sample of the transmit family, and so on.
  prometheus::MetricFamily* transmit = FindFamily(families_, kPortTransmitBytesMetric);
  prometheus::MetricFamily* receive = FindFamily(families_, kPortReceiveBytesMetric);
  prometheus::MetricFamily* raw = FindFamily(families_, kPortCounterTotalMetric);
  size_t tx = 0, rx = 0, counter = 0;
  for (const Device& device : snapshot.devices) {
    for (const Port& port : device.ports) {
      const PortCounters& counters = port.counters;
      if (counters.transmit_bytes && transmit != nullptr)
        transmit->metric[tx++].counter.value = static_cast<double>(*counters.transmit_bytes);
      if (counters.receive_bytes && receive != nullptr)
        receive->metric[rx++].counter.value = static_cast<double>(*counters.receive_bytes);
      for (const auto& [name, value] : counters.counters) {
        if (raw != nullptr && IsByteCounter(name))
          raw->metric[counter].counter.value = static_cast<double>(value);
        ++counter;
      }
    }
  }
}

void InventoryComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  static const NodeSnapshot kNone;
  const NodeSnapshot* latest = ctx.state().snapshot();
  const NodeSnapshot& snapshot = latest ? *latest : kNone;
  if (built_ && SameButByteCounters(snapshot, built_from_)) {
    PatchByteCounters(snapshot);
    ++reuses_;
  } else {
    MetricFamilies built;
    BuildInventoryFamilies(snapshot, built);
    families_ = built.Take();
    built_from_ = snapshot;
    built_ = true;
    ++builds_;
  }
  for (const prometheus::MetricFamily& family : families_) out.Append(family);
}

void InventoryComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  (void)ctx;
  uint64_t errors = 0;
  for (const auto& [source, count] : snapshot.read_errors) errors += count;
  bool unknown = false;
  for (const Device& device : snapshot.devices)
    for (const Port& port : device.ports)
      unknown = unknown || !port.GidTableKnown() || !port.counters.unreadable.empty();
  reads_failing_ = errors > 0 || unknown;
  if (!snapshot.read_failures.empty()) {
    named_failures_ = snapshot.read_failures;
  } else if (!reads_failing_) {
    named_failures_.clear();
  }
  if (std::optional<ReadFailureLog::Line> line = read_failure_log_.Observe(
          snapshot.taken_at, reads_failing_, errors, snapshot.read_failures)) {
    if (line->warning)
      spdlog::warn("{}", line->text);
    else
      spdlog::info("{}", line->text);
  }
}

bool InventoryComponent::Healthy(const MonitorContext& ctx) const {
  (void)ctx;
  return !reads_failing_;
}

void InventoryComponent::AppendFindings(const MonitorContext& ctx,
                                        std::vector<Finding>& out) const {
  const NodeSnapshot* snapshot = ctx.state().snapshot();
  if (!reads_failing_ || !snapshot) return;
  std::vector<Finding> failed = CheckReadFailures(*snapshot, named_failures_);
  out.insert(out.end(), failed.begin(), failed.end());
}

}  // namespace rocewatch
