#pragma once
// A text document an HTTP endpoint serves as is, or gzip-compressed for a client that accepts it
// (Prometheus asks for gzip: a 16-rail node's ~110 kB exposition is ~8 kB compressed). The
// compressed form is made at most once per document, by the first request that wants it, so a
// document that several scrapes see is compressed once, and one nobody asks compressed for never.
//
// Threading: immutable but for the compressed form, which gzipped() makes under a once_flag:
// share a document between threads as std::shared_ptr<const ServedText>.

#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace rocewatch {

class ServedText {
 public:
  explicit ServedText(std::string text) : text_(std::move(text)) {}
  ServedText(const ServedText&) = delete;
  ServedText& operator=(const ServedText&) = delete;

  const std::string& text() const { return text_; }
  // The text as one gzip member (RFC 1952), made on the first call; null when zlib failed (then
  // serve text()). Thread-safe.
  const std::string* gzipped() const;

 private:
  const std::string text_;
  mutable std::once_flag compress_once_;
  mutable std::optional<std::string> gzipped_;
};

// True when an Accept-Encoding header value lists gzip with a non-zero quality ("gzip",
// "deflate, gzip;q=0.5"; not "gzip;q=0", not "identity"). Pure.
bool AcceptsGzip(std::string_view accept_encoding);

}  // namespace rocewatch
