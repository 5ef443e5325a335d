#include "diagnose/diagnose_report.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "build_info.h"
#include "core/natural_less.h"
#include "core/terminal_text.h"
#include "export/daemon_findings.h"
#include "os/file_system.h"

namespace rocewatch {

const char* ReportStatus(const DiagnoseReport& report) {
  switch (WorstSeverity(report.findings)) {
    case Severity::kCritical:
      return "critical";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "healthy";
  }
  return "healthy";
}

int ReportExitStatus(const DiagnoseReport& report) {
  switch (WorstSeverity(report.findings)) {
    case Severity::kCritical:
      return 2;
    case Severity::kWarning:
      return 1;
    case Severity::kInfo:
      return 0;
  }
  return 0;
}

namespace {

using json = nlohmann::ordered_json;

// One port: its attributes (null when a read failed: unknown, never ""), GIDs, what could not be
// read, and the far end of a RoCE port's netdev.
json PortToJson(const DiagnoseReport& report, const Port& port) {
  json gids = json::array();
  for (const GidEntry& gid : port.gids) {
    gids.push_back({{"index", gid.index},
                    {"gid", gid.gid},
                    {"type", GidTypeLabel(gid.type)},
                    {"netdev", gid.netdev}});
  }
  auto port_attribute = [&port](const char* name, const std::string& value) {
    return port.AttributeUnreadable(name) ? json(nullptr) : json(value);
  };
  json out = {{"port", port.number},
              {"state", port_attribute("state", port.state)},
              {"phys_state", port_attribute("phys_state", port.phys_state)},
              {"link_layer", port_attribute("link_layer", port.link_layer)},
              {"rate", port_attribute("rate", port.rate)},
              {"netdevs", port.netdevs},
              {"gids", gids}};
  // Unknown, not empty (docs/diagnose.md): added only when a read failed, so the document of a
  // node whose reads all succeed is unchanged.
  if (port.gid_table_unlistable) out["gid_table_unreadable"] = true;
  if (!port.unreadable_gid_slots.empty()) {
    out["gid_slots_unreadable"] = port.unreadable_gid_slots.size();
    out["gid_indices_unreadable"] = port.unreadable_gid_slots;
  }
  if (!port.counters.unreadable.empty()) out["counters_unreadable"] = port.counters.unreadable;
  // The far end (LLDP) of a RoCE port's netdev: null while unknown.
  if (const std::string netdev = PrimaryNetdev(port); port.IsRoce() && !netdev.empty()) {
    auto n = report.neighbors.find(netdev);
    if (n == report.neighbors.end()) {
      out["neighbor"] = nullptr;
    } else {
      const NeighborLabels& l = n->second.labels;
      out["neighbor"] = {{"source", n->second.source},
                         {"chassis_id", l.chassis_id},
                         {"port_id", l.port_id},
                         {"system_name", l.system_name},
                         {"port_description", l.port_description}};
    }
  }
  return out;
}

// One device: its attributes, ports and (with consumer sources) who holds it.
json DeviceToJson(const DiagnoseReport& report, const Device& device) {
  json ports = json::array();
  for (const Port& port : device.ports) ports.push_back(PortToJson(report, port));
  auto device_attribute = [&device](const char* name, const std::string& value) {
    return device.AttributeUnreadable(name) ? json(nullptr) : json(value);
  };
  json out = {{"name", device.name},
              {"fw_ver", device_attribute("fw_ver", device.fw_ver)},
              {"hca_type", device_attribute("hca_type", device.hca_type)},
              {"node_guid", device_attribute("node_guid", device.node_guid)},
              {"ports", ports}};
  if (report.consumers) {
    json consumers = json::array();
    for (const RailConsumer& c : report.consumers->ConsumersOf(device.name)) {
      json entry = json::object();
      if (c.pid != 0) entry["pid"] = c.pid;
      entry["comm"] = c.comm;
      entry["pod"] = c.pod;
      entry["namespace"] = c.pod_namespace;
      entry["container"] = c.container;
      entry["job"] = c.job;
      entry["nccl_version"] = c.nccl_version;
      consumers.push_back(std::move(entry));
    }
    out["consumers"] = consumers;
    out["consumers_known"] = ConsumerKnowledgeLabel(report.consumers->KnowledgeOf(device.name));
  }
  return out;
}

json NetdevToJson(const NetdevReport& netdev) {
  const NetdevObservation& obs = netdev.observation;
  json addresses = json::array();
  for (const IpAddress& a : obs.state.addresses) addresses.push_back(a.ToString());
  return {{"name", obs.state.name},
          {"carrier", obs.carrier_known ? json(obs.state.carrier) : json(nullptr)},
          {"addresses", addresses},
          {"managed_by", netdev.managed_by},
          {"in_namespace", obs.in_namespace}};
}

json FindingToJson(const DiagnoseReport& report, const Finding& f) {
  json out = {{"severity", SeverityLabel(f.severity)},
              {"check", f.check},
              {"subject", f.subject},
              {"message", f.message},
              {"remedy", f.remedy}};
  // The note on the daemon's answer says when a bundle recorded it.
  if (report.daemon_recorded_at_unix && f.check.rfind("daemon", 0) == 0)
    out["recorded_at"] = FormatUtc(*report.daemon_recorded_at_unix, false);
  return out;
}

}  // namespace

nlohmann::ordered_json ReportToJson(const DiagnoseReport& report) {
  json devices = json::array();
  for (const Device& device : report.snapshot.devices)
    devices.push_back(DeviceToJson(report, device));
  json netdevs = json::array();
  for (const NetdevReport& netdev : report.netdevs) netdevs.push_back(NetdevToJson(netdev));
  json findings = json::array();
  for (const Finding& f : report.findings) findings.push_back(FindingToJson(report, f));
  json out = {{"version", kVersion},
              {"status", ReportStatus(report)},
              {"gid_source", report.gid_source},
              {"devices", devices},
              {"netdevs", netdevs},
              {"findings", findings}};
  if (!report.watch_log.empty()) out["watch"] = report.watch_log;
  if (!report.link_quality.empty()) out["link_quality"] = LinkQualityToJson(report.link_quality);
  if (report.consumers) {
    out["consumer_sources"] = {{"sources", report.consumers->sources},
                               {"blind_spots", report.consumers->blind_spots}};
  }
  if (!report.daemon_events.empty()) out["daemon_events"] = report.daemon_events;
  return out;
}

namespace {

constexpr std::string_view kUnreadable = "unknown (unreadable)";

struct Ansi {
  bool on;
  std::string operator()(const char* code, const std::string& text) const {
    return on ? std::string("\033[") + code + "m" + text + "\033[0m" : text;
  }
};

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

// "4/255 GID slots in use"; an unknown table or unknown slots say so instead of counting them as
// free.
std::string GidSlotsLine(const Port& port) {
  if (port.gid_table_unlistable) return "GID table unknown (gids/ could not be listed)";
  std::string line = std::to_string(port.gids.size()) + "/" + std::to_string(port.gid_table_len) +
                     " GID slots in use";
  if (port.unreadable_gid_slots.empty()) return line;
  std::string indices;
  for (size_t i = 0; i < port.unreadable_gid_slots.size() && i < 8; ++i)
    indices += (i ? "," : "") + std::to_string(port.unreadable_gid_slots[i]);
  if (port.unreadable_gid_slots.size() > 8) indices += ",...";
  return line + ", " + std::to_string(port.unreadable_gid_slots.size()) +
         " unknown (unreadable: index " + indices + ")";
}

// Every string from the host goes through Safe (core/terminal_text.h); the rest is ours.
std::string Safe(std::string_view text) { return TerminalSafe(text); }

// Each device, its ports, their far ends and GID tables.
void RenderDevices(const DiagnoseReport& report, const Ansi& ansi, std::ostringstream& out) {
  if (report.snapshot.devices.empty()) {
    out << "No RDMA devices found (no entries under class/infiniband).\n\n";
  }
  for (const Device& device : report.snapshot.devices) {
    // An attribute whose read failed reads "unknown (unreadable)", never blank.
    auto of_device = [&](const char* name, const std::string& value) {
      return device.AttributeUnreadable(name) ? std::string(kUnreadable) : Safe(value);
    };
    out << ansi("1", Safe(device.name)) << "  " << of_device("hca_type", device.hca_type) << "  fw "
        << of_device("fw_ver", device.fw_ver) << "  node_guid "
        << of_device("node_guid", device.node_guid) << "\n";
    for (const Port& port : device.ports) {
      auto of_port = [&](const char* name, const std::string& value) {
        return port.AttributeUnreadable(name) ? std::string(kUnreadable) : Safe(value);
      };
      std::string state = port.state.empty() && !port.AttributeUnreadable("state")
                              ? "unknown"
                              : of_port("state", port.state);
      out << "  port " << port.number << ": "
          << (port.IsActive() ? ansi("32", state) : ansi("33", state)) << " ("
          << of_port("phys_state", port.phys_state) << "), "
          << of_port("link_layer", port.link_layer) << ", " << of_port("rate", port.rate)
          << ", netdevs ";
      for (size_t i = 0; i < port.netdevs.size(); ++i)
        out << (i ? "," : "") << Safe(port.netdevs[i]);
      if (port.netdevs.empty()) out << "-";
      out << ", " << GidSlotsLine(port) << "\n";
      if (const std::string netdev = PrimaryNetdev(port); port.IsRoce() && !netdev.empty()) {
        auto n = report.neighbors.find(netdev);
        out << "    far end: ";
        if (n == report.neighbors.end()) {
          out << "unknown (no LLDP frame yet)\n";
        } else {
          const NeighborLabels& l = n->second.labels;
          out << Safe(l.system_name.empty() ? l.chassis_id : l.system_name) << " port "
              << Safe(l.port_id);
          if (!l.port_description.empty()) out << " (" << Safe(l.port_description) << ")";
          out << ", from the " << (n->second.source == "daemon" ? "daemon" : "recording") << "\n";
        }
      }
      if (!port.gids.empty()) {
        out << "    " << Pad("INDEX", 7) << Pad("GID", 41) << Pad("TYPE", 9) << Pad("IPV4", 16)
            << "NETDEV\n";
      }
      for (const GidEntry& gid : port.gids) {
        std::optional<std::string> ip = Ipv4OfGid(gid.gid);
        out << "    " << Pad(std::to_string(gid.index), 7) << Pad(Safe(gid.gid), 41)
            << Pad(GidTypeLabel(gid.type), 9) << Pad(ip ? *ip : "", 16) << Safe(gid.netdev) << "\n";
      }
    }
    out << "\n";
  }
}

// Each RNIC netdev's carrier, manager and addresses.
void RenderNetdevs(const DiagnoseReport& report, const Ansi& ansi, std::ostringstream& out) {
  if (!report.netdevs.empty()) {
    out << ansi("1", "Netdevs") << "\n";
    for (const NetdevReport& netdev : report.netdevs) {
      const NetdevObservation& obs = netdev.observation;
      out << "  " << Pad(Safe(obs.state.name), 16) << "carrier "
          << (obs.carrier_known ? (obs.state.carrier ? ansi("32", "up") : ansi("31", "down"))
                                : std::string("unknown"))
          << ", managed by " << Safe(netdev.managed_by) << ", ";
      if (!obs.in_namespace) {
        out << "not in this network namespace (addresses unknown)";
      } else if (obs.state.addresses.empty()) {
        out << "no addresses";
      } else {
        for (size_t i = 0; i < obs.state.addresses.size(); ++i)
          out << (i ? " " : "") << Safe(obs.state.addresses[i].ToString());
      }
      out << "\n";
    }
    out << "\n";
  }
}

// Who holds each device, and what the consumer sources could not see.
void RenderConsumers(const DiagnoseReport& report, const Ansi& ansi, std::ostringstream& out) {
  if (report.consumers) {
    const ConsumerObservation& seen = *report.consumers;
    out << ansi("1", "Who uses each rail")
        << "  (sources: " << (seen.sources.empty() ? std::string("none") : "");
    for (size_t i = 0; i < seen.sources.size(); ++i)
      out << (i ? ", " : "") << Safe(seen.sources[i]);
    out << ")\n";
    for (const Device& device : report.snapshot.devices) {
      const std::vector<RailConsumer>& consumers = seen.ConsumersOf(device.name);
      out << "  " << Pad(Safe(device.name), 16);
      if (consumers.empty()) {
        const ConsumerKnowledge knowledge = seen.KnowledgeOf(device.name);
        out << (knowledge == ConsumerKnowledge::kNone ? "nobody" : "unknown") << "\n";
        continue;
      }
      for (size_t i = 0; i < consumers.size(); ++i)
        out << (i ? "\n" + std::string(18, ' ') : "") << Safe(consumers[i].Describe());
      out << "\n";
    }
    for (const std::string& blind : seen.blind_spots) out << "  not seen: " << Safe(blind) << "\n";
    out << "\n";
  }
}

// What happened while watching, and what the daemon saw.
void RenderEvents(const DiagnoseReport& report, const Ansi& ansi, std::ostringstream& out) {
  if (!report.watch_log.empty()) {
    out << ansi("1", "What happened while watching") << "\n";
    for (const std::string& line : report.watch_log) out << "  " << Safe(line) << "\n";
    out << "\n";
  }

  if (report.daemon_recorded_at_unix)
    out << ansi("1", "The daemon's findings were recorded at collection time, " +
                         FormatUtc(*report.daemon_recorded_at_unix, false) + " (not live)")
        << "\n\n";
  if (!report.daemon_events.empty()) {
    out << ansi("1", "What the daemon saw (recent warnings)") << "\n";
    for (const std::string& line : report.daemon_events) out << "  " << Safe(line) << "\n";
    out << "\n";
  }
}

// The findings, grouped by severity, worst first, and the status line.
void RenderFindings(const DiagnoseReport& report, const Ansi& ansi, std::ostringstream& out) {
  // The heading counts each group.
  std::string counts;
  for (Severity severity : {Severity::kCritical, Severity::kWarning, Severity::kInfo}) {
    size_t n = std::count_if(report.findings.begin(), report.findings.end(),
                             [&](const Finding& f) { return f.severity == severity; });
    if (n > 0)
      counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + SeverityLabel(severity) +
                (severity == Severity::kWarning && n > 1 ? "s" : "");
  }
  out << ansi("1", "Findings") << (counts.empty() ? "" : " (" + counts + ")") << "\n";
  if (report.findings.empty()) out << "  none\n";
  for (Severity severity : {Severity::kCritical, Severity::kWarning, Severity::kInfo}) {
    for (const Finding& f : report.findings) {
      if (f.severity != severity) continue;
      const char* color = severity == Severity::kCritical  ? "1;31"
                          : severity == Severity::kWarning ? "33"
                                                           : "36";
      std::string label = SeverityLabel(severity);
      std::transform(label.begin(), label.end(), label.begin(), ::toupper);
      out << "  " << ansi(color, Pad(label, 9)) << Safe(f.subject) << "  [" << Safe(f.check)
          << "]\n"
          << "           " << Safe(f.message) << "\n"
          << "           remedy: " << Safe(f.remedy) << "\n";
    }
  }
  out << "\nstatus: " << ReportStatus(report) << "\n";
}

}  // namespace

std::string RenderReportText(const DiagnoseReport& report, const TextStyle& style) {
  Ansi ansi{style.color};
  std::ostringstream out;
  out << ansi("1", "rocewatch diagnose") << " " << kVersion << "  (GIDs read through "
      << Safe(report.gid_source) << ")\n\n";
  RenderDevices(report, ansi, out);
  RenderNetdevs(report, ansi, out);
  if (!report.link_quality.empty()) {
    out << ansi("1", "Link quality") << "\n" << RenderLinkQualityText(report.link_quality) << "\n";
  }
  RenderConsumers(report, ansi, out);
  RenderEvents(report, ansi, out);
  RenderFindings(report, ansi, out);
  return out.str();
}

}  // namespace rocewatch
