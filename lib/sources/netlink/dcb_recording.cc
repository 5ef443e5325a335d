#include "netlink/dcb_recording.h"

#include <nlohmann/json.hpp>

#include "core/hex.h"
#include "os/host_paths.h"

namespace rocewatch {
namespace {

using nlohmann::json;

constexpr const char* kRequest = "DCB_CMD_IEEE_GET";

}  // namespace

std::string DcbRecordingBundlePath(const std::string& netdev) {
  return "rocewatch/dcb/" + netdev + ".json";
}

std::string DcbRecordingPath(const std::string& host_root, const std::string& netdev) {
  std::string root = host_root;
  while (!root.empty() && root.back() == '/') root.pop_back();
  return root + "/" + DcbRecordingBundlePath(netdev);
}

std::string FormatDcbRecording(const std::string& netdev,
                               const StatusOr<std::optional<std::vector<uint8_t>>>& answer) {
  json out = {{"request", kRequest}, {"netdev", netdev}};
  if (!answer.ok()) {
    out["outcome"] = "failed";
    out["answer"] = nullptr;
    out["error"] = answer.status().ToString();
  } else if (!answer->has_value()) {
    out["outcome"] = "no_dcb";
    out["answer"] = nullptr;
  } else {
    out["outcome"] = "answered";
    out["answer"] = HexEncode(**answer);
    StatusOr<std::optional<HostPfc>> pfc = ParseDcbIeeeAnswer(**answer);
    if (pfc.ok() && pfc->has_value()) {
      json enabled = json::array();
      for (int priority = 0; priority < 8; ++priority)
        if (((*pfc)->enabled >> priority) & 1) enabled.push_back(priority);
      out["pfc_enabled"] = std::move(enabled);
    }
  }
  // Replaces what is not UTF-8 (a netdev name is bytes) instead of throwing.
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

StatusOr<std::optional<std::vector<uint8_t>>> ParseDcbRecording(const std::string& text) {
  if (text.size() > kMaxDcbRecordingBytes) return Status::Corrupt("larger than its bound");
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return Status::Corrupt("not a JSON object");
  auto string_at = [&doc](const char* key) -> std::optional<std::string> {
    auto it = doc.find(key);
    if (it == doc.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  if (string_at("request") != kRequest) return Status::Corrupt("not a DCB_CMD_IEEE_GET recording");
  std::optional<std::string> outcome = string_at("outcome");
  if (outcome == "no_dcb") return std::optional<std::vector<uint8_t>>();
  if (outcome == "failed") {
    std::string error = string_at("error").value_or("unknown error");
    if (error.size() > 1024) error.resize(1024);
    return Status::Unavailable("recorded: " + error);
  }
  if (outcome != "answered") return Status::Corrupt("outcome is not answered, no_dcb or failed");
  std::optional<std::string> hex = string_at("answer");
  if (!hex) return Status::Corrupt("answered without an answer");
  std::optional<std::vector<uint8_t>> answer = HexDecode(*hex, kMaxDcbAnswerBytes);
  if (!answer) return Status::Corrupt("answer is not lower-case hex of at most 64 KiB");
  return std::optional<std::vector<uint8_t>>(std::move(*answer));
}

DcbAnswerReader DcbRecordingsFirst(DcbAnswerReader live, const FileSystem& files,
                                   std::string host_root) {
  if (live && HostPaths::IsLiveRoot(host_root)) return live;  // no bundle at "/": skip the open
  return [live = std::move(live), &files, host_root = std::move(host_root)](
             const std::string& netdev) -> StatusOr<std::optional<std::vector<uint8_t>>> {
    const std::string path = DcbRecordingPath(host_root, netdev);
    StatusOr<std::string> text = files.ReadFile(path, kMaxDcbRecordingBytes + 1);
    if (!text.ok() && text.status().code() == StatusCode::kNotFound) {
      if (!live) return Status::NotFound(path + ": no recording");
      return live(netdev);
    }
    if (!text.ok()) return text.status();
    StatusOr<std::optional<std::vector<uint8_t>>> answer = ParseDcbRecording(*text);
    if (!answer.ok() && answer.status().code() == StatusCode::kCorrupt)
      return Status::Corrupt(path + ": " + answer.status().message());
    return answer;
  };
}

}  // namespace rocewatch
