#include "diagnose/daemon_recording.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/utf8.h"

namespace rocewatch {
namespace {

constexpr size_t kMaxUrlChars = 256;
constexpr size_t kMaxReasonChars = 1024;
constexpr double kMaxUnixSeconds = 1e11;  // year 5138: beyond, a time is not one

// The file at `relative` under `root`, refused (not cut) beyond `max_bytes`.
StatusOr<std::string> ReadBounded(const FileSystem& fs, const std::string& root,
                                  std::string_view relative, size_t max_bytes) {
  const std::string path = JoinPath(root, std::string(relative));
  StatusOr<std::string> text = fs.ReadFile(path, max_bytes + 1);
  if (!text.ok()) return text.status();
  if (text->size() > max_bytes)
    return Status::Corrupt(std::string(relative) + " is larger than " + std::to_string(max_bytes) +
                           " bytes");
  return text;
}

// Why the daemon's findings cannot be recorded; empty when they can.
std::string WhyNotUsable(const DaemonView& view) {
  if (!view.problem.ok()) return view.problem.message();
  if (view.other_host) return "watches another host (boot id " + view.findings.boot_id + ")";
  return "";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> DaemonRecordingFiles(const DaemonView& view,
                                                                      const std::string& url,
                                                                      double asked_at_unix) {
  nlohmann::ordered_json answer = {
      {"url", url}, {"asked_at_unix", asked_at_unix}, {"answered", view.usable()}};
  if (const std::string why = WhyNotUsable(view); !why.empty()) answer["error"] = why;
  if (view.usable() && !view.metrics_problem.empty())
    answer["metrics_error"] = view.metrics_problem;
  if (view.usable() && view.state_source == "/api/v1/state" && !view.state_problem.empty())
    answer["state_error"] = view.state_problem;
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back(std::string(kDaemonAnswerRecordingPath),
                     answer.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (!view.usable()) return files;
  files.emplace_back(std::string(kDaemonFindingsRecordingPath), view.findings_text);
  if (view.metrics_problem.empty())
    files.emplace_back(std::string(kDaemonMetricsRecordingPath), view.metrics_text);
  if (!view.state_text.empty())
    files.emplace_back(std::string(kDaemonStateRecordingPath), view.state_text);
  return files;
}

std::string DaemonRecordingFailure(const DaemonView& view, const std::string& url) {
  const std::string why = WhyNotUsable(view);
  return why.empty() ? why : "daemon " + url + ": " + why;
}

std::optional<DaemonView> ReadDaemonRecording(const FileSystem& fs, const std::string& host_root,
                                              const std::string& boot_id) {
  StatusOr<std::string> text =
      ReadBounded(fs, host_root, kDaemonAnswerRecordingPath, kMaxDaemonAnswerBytes);
  if (!text.ok() && text.status().code() == StatusCode::kNotFound) return std::nullopt;
  DaemonView view;
  view.recorded = true;
  view.where = "the bundle's " + std::string(kDaemonAnswerRecordingPath);
  auto corrupt = [&](const std::string& why) {
    view.problem = Status::Corrupt("the daemon answer recorded in the bundle is unusable: " + why);
    return view;
  };
  if (!text.ok()) return corrupt(text.status().message());
  const nlohmann::json answer = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (answer.is_discarded() || !answer.is_object()) return corrupt("answer.json is not JSON");
  const auto field = [&](const char* name) {
    auto it = answer.find(name);
    return it == answer.end() ? nullptr : &*it;
  };
  const nlohmann::json *url = field("url"), *at = field("asked_at_unix"),
                       *answered = field("answered");
  if (!url || !url->is_string() || !at || !at->is_number() ||
      !(at->get<double>() >= 0 && at->get<double>() < kMaxUnixSeconds) || !answered ||
      !answered->is_boolean())
    return corrupt("answer.json lacks a url, an asked_at_unix time or answered");
  std::string where = ToValidUtf8(url->get<std::string>().substr(0, kMaxUrlChars));
  if (where.empty()) where = "(no URL)";
  const double recorded_at = at->get<double>();
  if (!answered->get<bool>()) {
    const nlohmann::json* error = field("error");
    view.where = where;
    view.recorded_at_unix = recorded_at;
    view.problem =
        Status::Unavailable("at collection time: " +
                            (error && error->is_string()
                                 ? ToValidUtf8(error->get<std::string>().substr(0, kMaxReasonChars))
                                 : std::string("no reason recorded")));
    return view;
  }
  const std::string recorded_metrics_problem = [&] {
    const nlohmann::json* error = field("metrics_error");
    return error && error->is_string()
               ? ToValidUtf8(error->get<std::string>().substr(0, kMaxReasonChars))
               : std::string("not recorded");
  }();
  DaemonDocuments recorded = [&](const std::string& path) -> StatusOr<std::string> {
    if (path == "/metrics") {
      StatusOr<std::string> metrics =
          ReadBounded(fs, host_root, kDaemonMetricsRecordingPath, kMaxDaemonDocumentBytes);
      if (!metrics.ok() && metrics.status().code() == StatusCode::kNotFound)
        return Status::Unavailable(recorded_metrics_problem);
      return metrics;
    }
    // Absent (NotFound): a daemon older than /api/v1/state, or one whose state did not answer;
    // its figures are then read from metrics.prom.
    if (path == "/api/v1/state")
      return ReadBounded(fs, host_root, kDaemonStateRecordingPath, kMaxDaemonDocumentBytes);
    return ReadBounded(fs, host_root, kDaemonFindingsRecordingPath, kMaxDaemonDocumentBytes);
  };
  view = ViewDaemon(recorded, where, boot_id);
  view.recorded = true;
  view.recorded_at_unix = recorded_at;
  if (!view.problem.ok()) {
    const std::string why = view.problem.message();
    return corrupt(why);
  }
  return view;
}

}  // namespace rocewatch
