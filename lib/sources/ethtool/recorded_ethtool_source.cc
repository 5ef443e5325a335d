#include "ethtool/recorded_ethtool_source.h"

#include <cerrno>
#include <cstring>

#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"

namespace rocewatch {
namespace {

// Parses a recording with `parse`, naming the file in errors.
template <typename T, typename Parse>
StatusOr<std::optional<T>> ParseWith(StatusOr<std::optional<std::string>> text, Parse parse,
                                     const std::string& path) {
  if (!text.ok()) return text.status();
  if (!*text) return std::optional<T>();
  StatusOr<T> parsed = parse(**text);
  if (!parsed.ok()) return Status::InvalidArgument(path + ": " + parsed.status().message());
  return std::optional<T>(std::move(*parsed));
}

}  // namespace

bool RecordedEthtoolSource::HasRecording(const std::string& netdev) const {
  return fs_.IsDirectory(JoinPath(dir_, netdev));
}

StatusOr<std::optional<std::string>> RecordedEthtoolSource::ReadRecording(
    const std::string& netdev, const std::string& file) const {
  const std::string path = JoinPath(JoinPath(dir_, netdev), file);
  StatusOr<std::string> text = fs_.ReadFile(path, 1 << 20);
  if (!text.ok()) {
    if (text.status().code() == StatusCode::kNotFound) return std::optional<std::string>();
    return text.status();
  }
  if (*text == kUnsupportedRecording || *text == "unsupported") return std::optional<std::string>();
  if (text->rfind("error:", 0) == 0) {
    std::string message = text->substr(6);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
      message.pop_back();
    while (!message.empty() && message.front() == ' ') message.erase(0, 1);
    // A refusal for lack of a privilege replays as one (the collector lacked it, e.g. for the
    // admin-only module reads): the message ends with strerror(EPERM) as the live read's does.
    const std::string_view refused = std::strerror(EPERM);
    if (message.size() >= refused.size() &&
        message.compare(message.size() - refused.size(), refused.size(), refused) == 0)
      return Status::PermissionDenied(path + ": recorded failure: " + message);
    return Status::IoError(path + ": recorded failure: " + message);
  }
  return std::optional<std::string>(std::move(*text));
}

StatusOr<std::optional<DriverStatistics>> RecordedEthtoolSource::ReadDriverStatistics(
    const std::string& netdev) {
  return ParseWith<DriverStatistics>(
      ReadRecording(netdev, "statistics"),
      [](const std::string& t) { return ParseDriverStatisticsText(t); }, netdev + "/statistics");
}

StatusOr<std::optional<EthtoolAnswer>> RecordedEthtoolSource::Read(const std::string& netdev,
                                                                   EthtoolRequest request) {
  auto read = [&]<typename Reading>(const std::string& file,
                                    StatusOr<Reading> (*parse)(const std::string&)) {
    return AnswerOf(ParseWith<Reading>(ReadRecording(netdev, file), parse, netdev + "/" + file));
  };
  switch (request) {
    case EthtoolRequest::kFec:
      return read("fec", ParseFecRecording);
    case EthtoolRequest::kLinkState:
      return read("link_state", ParseLinkStateRecording);
    case EthtoolRequest::kPause:
      return read("pause", ParsePauseRecording);
    case EthtoolRequest::kStandardStatistics:
      return read("standard_statistics", ParseStandardStatisticsRecording);
  }
  return Status::InvalidArgument("unknown ethtool request");
}

StatusOr<std::optional<std::string>> RecordedEthtoolSource::ReadModulePage(
    const std::string& netdev, const ModulePageAddress& address) {
  StatusOr<std::optional<std::string>> bytes =
      ReadRecording(netdev, "module/" + ModulePageFileName(address));
  if (!bytes.ok() || !*bytes) return bytes;
  if ((*bytes)->size() != address.length)
    return Status::InvalidArgument(netdev + "/module/" + ModulePageFileName(address) + ": " +
                                   std::to_string((*bytes)->size()) + " bytes, expected " +
                                   std::to_string(address.length));
  return bytes;
}

}  // namespace rocewatch
