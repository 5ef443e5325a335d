#include "nccl/nccl_environment.h"

#include "core/text.h"

namespace rocewatch {

std::map<std::string, std::string> ParseEnvironBlock(std::string_view block,
                                                     std::string_view prefix) {
  std::map<std::string, std::string> variables;
  size_t start = 0;
  while (start < block.size()) {
    size_t end = block.find('\0', start);
    if (end == std::string_view::npos) end = block.size();
    std::string_view entry = block.substr(start, end - start);
    start = end + 1;
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    std::string_view name = entry.substr(0, eq);
    if (name.substr(0, prefix.size()) != prefix) continue;
    variables.emplace(std::string(name), std::string(entry.substr(eq + 1)));  // first one wins
  }
  return variables;
}

bool NcclHcaSpec::Names(const NcclHcaEntry& entry, std::string_view device) const {
  if (exact) return entry.device == device;
  return device.substr(0, entry.device.size()) == entry.device;
}

bool NcclHcaSpec::Selects(std::string_view device, int port) const {
  if (entries.empty()) return true;
  bool listed = false;
  for (const NcclHcaEntry& e : entries)
    if (Names(e, device) && (!e.port || *e.port == port)) listed = true;
  return exclude ? !listed : listed;
}

NcclHcaSpec ParseNcclIbHca(std::string_view text) {
  NcclHcaSpec spec;
  text = Trim(text);
  if (!text.empty() && text[0] == '^') {
    spec.exclude = true;
    text.remove_prefix(1);
  }
  if (!text.empty() && text[0] == '=') {
    spec.exact = true;
    text.remove_prefix(1);
  }
  for (const std::string& field : SplitFields(text, ",")) {
    NcclHcaEntry entry;
    size_t colon = field.find(':');
    entry.device = field.substr(0, colon);
    long long port = 0;
    if (colon != std::string::npos && ParseInteger(field.substr(colon + 1), &port) && port > 0 &&
        port < 256)
      entry.port = static_cast<int>(port);
    if (!entry.device.empty()) spec.entries.push_back(std::move(entry));
  }
  return spec;
}

NcclSettings InterpretNcclSettings(std::map<std::string, std::string> variables) {
  NcclSettings s;
  s.raw = std::move(variables);
  auto number = [&](const char* name, long long min, long long max) -> std::optional<long long> {
    auto it = s.raw.find(name);
    if (it == s.raw.end()) return std::nullopt;
    long long value = 0;
    if (ParseInteger(Trim(it->second), &value) && value >= min && value <= max) return value;
    s.invalid.push_back(std::string(name) + "=" + it->second);
    return std::nullopt;
  };
  if (auto it = s.raw.find("NCCL_IB_GID_INDEX"); it != s.raw.end() && it->second.empty()) {
    s.gid_index_empty = true;
  } else {
    s.gid_index = number("NCCL_IB_GID_INDEX", -1, 65535);
  }
  s.timeout = number("NCCL_IB_TIMEOUT", 0, 31);
  s.retry_count = number("NCCL_IB_RETRY_CNT", 0, 7);
  s.roce_version = number("NCCL_IB_ROCE_VERSION_NUM", 1, 2).value_or(2);
  if (auto it = s.raw.find("NCCL_IB_ADDR_FAMILY"); it != s.raw.end()) {
    std::string_view family = Trim(it->second);
    if (family == "AF_INET6") {
      s.address_family = NcclAddressFamily::kIpv6;
    } else if (family != "AF_INET") {
      s.invalid.push_back("NCCL_IB_ADDR_FAMILY=" + it->second);
    }
  }
  if (auto it = s.raw.find("NCCL_IB_HCA"); it != s.raw.end() && !Trim(it->second).empty())
    s.hca = ParseNcclIbHca(it->second);
  return s;
}

}  // namespace rocewatch
