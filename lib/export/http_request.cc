#include "export/http_request.h"

#include <vector>

#include "core/text.h"

namespace rocewatch {
namespace {

bool IsToken(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (c <= ' ' || c >= 127) return false;
  return true;
}

}  // namespace

HeadVerdict ParseRequestHead(std::string_view received, HttpRequestHead* head) {
  size_t end = received.find("\n\r\n");
  size_t bare = received.find("\n\n");
  if (bare != std::string_view::npos && (end == std::string_view::npos || bare < end)) end = bare;
  if (end == std::string_view::npos)
    return received.size() >= kMaxRequestHeadBytes ? HeadVerdict::kTooLarge
                                                   : HeadVerdict::kIncomplete;
  if (end >= kMaxRequestHeadBytes) return HeadVerdict::kTooLarge;
  std::vector<std::string_view> lines = SplitLines(received.substr(0, end + 1));
  // A client may send empty lines before the request line (RFC 9112 section 2.2).
  size_t first = 0;
  while (first < lines.size() && lines[first].empty()) ++first;
  if (first == lines.size()) return HeadVerdict::kMalformed;
  const std::string_view line = lines[first];
  const size_t space1 = line.find(' ');
  const size_t space2 = space1 == std::string_view::npos ? space1 : line.find(' ', space1 + 1);
  if (space2 == std::string_view::npos) return HeadVerdict::kMalformed;
  const std::string_view method = line.substr(0, space1);
  const std::string_view target = line.substr(space1 + 1, space2 - space1 - 1);
  const std::string_view version = line.substr(space2 + 1);
  if (!IsToken(method) || !IsToken(target) || target.front() != '/' ||
      (version != "HTTP/1.0" && version != "HTTP/1.1"))
    return HeadVerdict::kMalformed;
  HttpRequestHead parsed;
  parsed.method = std::string(method);
  parsed.path = std::string(target.substr(0, target.find('?')));
  for (size_t i = first + 1; i < lines.size(); ++i) {
    const size_t colon = lines[i].find(':');
    if (colon == std::string_view::npos || colon == 0) return HeadVerdict::kMalformed;
    if (ToLower(lines[i].substr(0, colon)) == "accept-encoding")
      parsed.accept_encoding = std::string(Trim(lines[i].substr(colon + 1)));
  }
  *head = std::move(parsed);
  return HeadVerdict::kComplete;
}

}  // namespace rocewatch
