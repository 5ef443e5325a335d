#include "app/inventory_component.h"

namespace rocewatch {

void InventoryComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  const NodeSnapshot& snapshot = ctx.latest_snapshot();
  out.Declare("rocewatch_port_info", "One per RDMA port: its link layer and netdev.",
              prometheus::MetricType::Gauge);
  out.Declare("rocewatch_gid_info", "One per valid GID table entry.",
              prometheus::MetricType::Gauge);
  out.Gauge("rocewatch_rdma_devices", "RDMA devices found on this node.", {},
            static_cast<double>(snapshot.devices.size()));
  for (const Device& device : snapshot.devices) {
    for (const Port& port : device.ports) {
      const std::string port_label = std::to_string(port.number);
      const Labels port_labels = {{"device", device.name}, {"port", port_label}};
      out.Gauge("rocewatch_port_info", "",
                {{"device", device.name},
                 {"port", port_label},
                 {"link_layer", port.link_layer},
                 {"netdev", PrimaryNetdev(port)}},
                1);
      out.Gauge("rocewatch_port_active", "1 if the port state is ACTIVE, else 0.", port_labels,
                port.IsActive() ? 1 : 0);
      for (const GidEntry& gid : port.gids) {
        out.Gauge("rocewatch_gid_info", "",
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
        out.Counter("rocewatch_port_transmit_bytes_total",
                    "Bytes transmitted by the port (sysfs port_xmit_data x 4; RoCE traffic only "
                    "on mlx5).",
                    port_labels, static_cast<double>(*counters.transmit_bytes));
      }
      if (counters.receive_bytes) {
        out.Counter("rocewatch_port_receive_bytes_total",
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
          out.Counter("rocewatch_port_transmit_wait_ticks_total",
                      "Ticks during which the port had data to send but no credits (sysfs "
                      "counters/port_xmit_wait).",
                      port_labels, static_cast<double>(value));
          continue;
        }
        out.Counter("rocewatch_port_events_total",
                    "Packets and error events of the port: every numeric file of its counters/ "
                    "directory but the data counters and port_xmit_wait, raw.",
                    {{"device", device.name}, {"port", port_label}, {"counter", name}},
                    static_cast<double>(value));
      }
      for (const auto& [name, value] : counters.hw_counters) {
        out.Counter("rocewatch_port_hw_events_total",
                    "Driver event counts of the port: every file of its hw_counters/ directory "
                    "except settings such as lifespan.",
                    {{"device", device.name}, {"port", port_label}, {"counter", name}},
                    static_cast<double>(value));
      }
    }
  }
}

}  // namespace rocewatch
