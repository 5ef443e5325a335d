#include "export/daemon_findings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <optional>

namespace rocewatch {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// "key=value" of a space-separated line, or "".
std::string ValueOf(std::string_view line, std::string_view key) {
  size_t at = 0;
  while (at < line.size()) {
    size_t end = line.find(' ', at);
    if (end == std::string_view::npos) end = line.size();
    std::string_view token = line.substr(at, end - at);
    if (token.size() > key.size() && token.substr(0, key.size()) == key && token[key.size()] == '=')
      return std::string(token.substr(key.size() + 1));
    at = end + 1;
  }
  return "";
}

std::optional<Severity> ParseSeverity(const std::string& label) {
  for (Severity s : {Severity::kInfo, Severity::kWarning, Severity::kCritical})
    if (label == SeverityLabel(s)) return s;
  return std::nullopt;
}

}  // namespace

std::string EventKind(std::string_view what) {
  size_t end = what.find_first_of(" :");
  if (end == std::string_view::npos || end == 0) return "event";
  std::string_view first = what.substr(0, end);
  if (what[end] == ':') return "netdev";  // "eth0: carrier down"
  for (char c : first)
    if (!(std::islower(static_cast<unsigned char>(c)) || c == '_' ||
          std::isdigit(static_cast<unsigned char>(c))))
      return "event";
  return std::string(first);
}

std::string EventSubject(std::string_view what) {
  std::string device = ValueOf(what, "device"), port = ValueOf(what, "port");
  if (!device.empty() && !port.empty()) return device + "/" + port;
  if (std::string netdev = ValueOf(what, "netdev"); !netdev.empty()) return netdev;
  size_t colon = what.find(": ");
  if (colon != std::string_view::npos && what.substr(0, colon).find(' ') == std::string_view::npos)
    return std::string(what.substr(0, colon));
  return "";
}

std::string FormatUtc(double unix_seconds, bool milliseconds) {
  // Rounded to the millisecond first, so that 0.869 s is never printed as .868.
  const long long total_ms = std::llround(unix_seconds * 1000);
  std::time_t whole = static_cast<std::time_t>(total_ms / 1000);
  std::tm tm;
  gmtime_r(&whole, &tm);
  char text[40];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out = text;
  if (milliseconds) {
    char frac[8];
    std::snprintf(frac, sizeof(frac), ".%03lld", total_ms % 1000);
    out += frac;
  }
  return out + "Z";
}

ordered_json DaemonFindingsToJson(const std::vector<TimedFinding>& findings,
                                  const std::deque<RecordedEvent>& events,
                                  const std::string& boot_id) {
  ordered_json out_findings = ordered_json::array();
  for (const TimedFinding& t : findings) {
    const Finding& f = t.finding;
    out_findings.push_back({{"severity", SeverityLabel(f.severity)},
                            {"check", f.check},
                            {"subject", f.subject},
                            {"message", f.message},
                            {"remedy", f.remedy},
                            {"since", FormatUtc(t.since_unix_seconds, false)},
                            {"last_seen", FormatUtc(t.last_seen_unix_seconds, false)}});
  }
  ordered_json out_events = ordered_json::array();
  for (const RecordedEvent& e : events) {
    out_events.push_back({{"time", FormatUtc(e.unix_seconds, true)},
                          {"severity", SeverityLabel(e.severity)},
                          {"kind", EventKind(e.what)},
                          {"subject", EventSubject(e.what)},
                          {"message", e.what}});
  }
  ordered_json out = {{"findings", std::move(out_findings)}, {"events", std::move(out_events)}};
  if (!boot_id.empty()) out["boot_id"] = boot_id;
  return out;
}

StatusOr<DaemonFindings> ParseDaemonFindings(std::string_view text) {
  json root = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return Status::Corrupt("not a JSON object");
  DaemonFindings out;
  try {
    for (const json& f : root.at("findings")) {
      std::optional<Severity> severity = ParseSeverity(f.at("severity").get<std::string>());
      if (!severity) return Status::Corrupt("unknown severity " + f.at("severity").dump());
      out.findings.push_back(
          {*severity, f.at("check").get<std::string>(), f.at("subject").get<std::string>(),
           f.at("message").get<std::string>(), f.value("remedy", std::string())});
      out.since.push_back(f.value("since", std::string()));
    }
    out.boot_id = root.value("boot_id", std::string());
    if (root.contains("events")) {
      for (const json& e : root.at("events")) {
        DaemonFindings::Event event;
        event.time = e.at("time").get<std::string>();
        event.severity =
            ParseSeverity(e.value("severity", std::string("info"))).value_or(Severity::kInfo);
        event.kind = e.value("kind", std::string());
        event.subject = e.value("subject", std::string());
        event.message = e.at("message").get<std::string>();
        out.events.push_back(std::move(event));
      }
    }
  } catch (const std::exception& e) {  // a wrong type or a missing key
    return Status::Corrupt(e.what());
  }
  return out;
}

void MergeDaemonFindings(const DaemonFindings& daemon, std::vector<Finding>& findings) {
  const size_t local = findings.size();
  for (size_t i = 0; i < daemon.findings.size(); ++i) {
    const Finding& d = daemon.findings[i];
    bool merged = false;
    for (size_t j = 0; j < local; ++j) {
      Finding& f = findings[j];
      if (f.check != d.check || f.subject != d.subject) continue;
      if (d.severity > f.severity) f.severity = d.severity;
      merged = true;
    }
    if (merged) continue;
    Finding added = d;
    added.message +=
        " (daemon" + (daemon.since[i].empty() ? "" : ", since " + daemon.since[i]) + ")";
    findings.push_back(std::move(added));
  }
}

}  // namespace rocewatch
