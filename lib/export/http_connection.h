#pragma once
// One client connection of the HTTP server (export/metrics_server.h) and the answer on its way to
// it, with the two socket calls the server makes per connection. Plain data: the server's socket
// thread owns every HttpConnection.

#include <sys/socket.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace rocewatch {

// An answer on its way: the head (and any small body) owned; a document's body shared with the
// exposition or findings document it comes from, so that connections scraping the same document
// hold one copy of it between them, not one each.
struct OutgoingAnswer {
  std::string head;
  std::shared_ptr<const void> owner;  // keeps `body` alive
  std::string_view body;
  size_t size() const { return head.size() + body.size(); }
};

// An answer that is all its own text (an error, /healthz).
inline OutgoingAnswer OwnedAnswer(std::string text) {
  return OutgoingAnswer{std::move(text), nullptr, {}};
}

struct HttpConnection {
  enum class Phase { kReadingHead, kWaitingDocument, kWriting };
  int fd = -1;
  std::string client;  // ClientOf: what the per-client bound counts
  Phase phase = Phase::kReadingHead;
  std::chrono::steady_clock::time_point accepted;
  std::chrono::steady_clock::time_point deadline;
  std::string received;
  OutgoingAnswer answer;
  size_t sent = 0;
};

// Sends what fits now, without blocking or SIGPIPE; returns the bytes taken (0 on any error).
size_t SendSome(int fd, const char* data, size_t size);

// Who a peer is, for the per-client bound: its IPv4 address, or the uid of a unix socket peer.
std::string ClientOf(int fd, const sockaddr_storage& peer);

}  // namespace rocewatch
