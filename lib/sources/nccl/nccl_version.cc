#include "nccl/nccl_version.h"

#include <charconv>

namespace rocewatch {
namespace {

bool TakeNumber(std::string_view& text, int* out) {
  const char* end = text.data() + text.size();
  auto [next, error] = std::from_chars(text.data(), end, *out);
  if (error != std::errc() || next == text.data() || *out < 0) return false;
  text.remove_prefix(static_cast<size_t>(next - text.data()));
  return true;
}

bool TakeDot(std::string_view& text) {
  if (text.empty() || text.front() != '.') return false;
  text.remove_prefix(1);
  return true;
}

}  // namespace

std::string NcclVersion::ToString() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<NcclVersion> ParseNcclVersion(std::string_view text) {
  NcclVersion version;
  if (!TakeNumber(text, &version.major) || !TakeDot(text) || !TakeNumber(text, &version.minor) ||
      !TakeDot(text) || !TakeNumber(text, &version.patch)) {
    return std::nullopt;
  }
  if (!text.empty() && text.front() != '-' && text.front() != '+') return std::nullopt;
  if (version.major > 1000 || version.minor > 1000 || version.patch > 1000) return std::nullopt;
  return version;
}

long long NcclDefaultIbTimeout(const NcclVersion& version) {
  if (version < NcclVersion{2, 14, 0}) return 14;
  if (version < NcclVersion{2, 23, 0}) return 18;
  return 20;
}

long long NcclDefaultGidIndex(const NcclVersion& version) {
  return version < NcclVersion{2, 21, 5} ? 0 : -1;
}

}  // namespace rocewatch
