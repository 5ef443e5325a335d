#pragma once
// The bytes of one HTTP/1.1 answer of the metrics server: status line, Content-Type,
// Content-Length, an optional Content-Encoding and "Connection: close" (every answer closes its
// connection). Pure.

#include <string>

namespace rocewatch {

// `encoding` is a Content-Encoding ("" for none); `head_only` (HEAD) leaves the body out but keeps
// its length.
std::string HttpAnswer(int status, const std::string& content_type, const std::string& body,
                       bool head_only = false, const std::string& encoding = "");

// A plain-text answer: "HTTP/1.1 503 Service Unavailable" ... `text`.
std::string HttpTextAnswer(int status, const std::string& text, bool head_only = false);

}  // namespace rocewatch
