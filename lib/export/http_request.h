#pragma once
// The head of one HTTP/1.x request, as the metrics server reads it from an untrusted peer: the
// request line and the one header it uses (Accept-Encoding). Pure: bytes in, a verdict out.

#include <cstddef>
#include <string>
#include <string_view>

namespace rocewatch {

// A request head larger than this is refused (431) without reading more.
inline constexpr size_t kMaxRequestHeadBytes = 8192;

struct HttpRequestHead {
  std::string method;           // as sent, e.g. "GET"
  std::string path;             // the target without its query ("/metrics" of "/metrics?x=1")
  std::string accept_encoding;  // the Accept-Encoding value, "" when absent
};

enum class HeadVerdict {
  kIncomplete,  // no blank line yet: read more (while under kMaxRequestHeadBytes)
  kComplete,    // `head` is filled
  kTooLarge,    // no blank line within kMaxRequestHeadBytes
  kMalformed,   // not "METHOD SP TARGET SP HTTP/1.x", or a header line without ':'
};

// Parses what a peer sent so far. Lines end in CRLF or LF (RFC 9112 section 2.2).
HeadVerdict ParseRequestHead(std::string_view received, HttpRequestHead* head);

}  // namespace rocewatch
