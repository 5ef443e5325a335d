#include "export/http_fetch.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <utility>

namespace rocewatch {
namespace {

using SteadyClock = std::chrono::steady_clock;

// Milliseconds left until `deadline` (0 when passed).
int MillisLeft(SteadyClock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// Waits for `events` on fd until the deadline. Errors: Unavailable "timed out".
Status WaitFor(int fd, short events, SteadyClock::time_point deadline) {
  while (true) {
    pollfd p{fd, events, 0};
    int rc = ::poll(&p, 1, MillisLeft(deadline));
    if (rc > 0) return Status::Ok();
    if (rc == 0) return Status::Unavailable("timed out");
    if (errno != EINTR) return Status::FromErrno(errno, "poll");
  }
}

class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  int fd() const { return fd_; }
  int Release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// A connected non-blocking socket to `url`'s host and port, or why not.
StatusOr<int> ConnectTcp(const HttpUrl& url, SteadyClock::time_point deadline) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  int gai = ::getaddrinfo(url.host.c_str(), std::to_string(url.port).c_str(), &hints, &found);
  if (gai != 0) return Status::Unavailable("cannot resolve " + url.host + ": " + gai_strerror(gai));
  Socket sock(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (sock.fd() < 0) {
    ::freeaddrinfo(found);
    return Status::FromErrno(errno, "socket");
  }
  int rc = ::connect(sock.fd(), found->ai_addr, found->ai_addrlen);
  ::freeaddrinfo(found);
  if (rc != 0 && errno != EINPROGRESS)
    return Status::Unavailable(std::string("connect: ") + std::strerror(errno));
  if (rc != 0) {
    if (Status s = WaitFor(sock.fd(), POLLOUT, deadline); !s.ok())
      return Status::Unavailable("connect: " + s.message());
    int error = 0;
    socklen_t len = sizeof(error);
    ::getsockopt(sock.fd(), SOL_SOCKET, SO_ERROR, &error, &len);
    if (error != 0) return Status::Unavailable(std::string("connect: ") + std::strerror(error));
  }
  return sock.Release();
}

// A connected non-blocking socket to the unix socket `path`, or why not (ENOENT: no daemon
// serves it; ECONNREFUSED: a socket left by a daemon that died).
StatusOr<int> ConnectUnix(const std::string& path, SteadyClock::time_point deadline) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.data(), std::min(path.size(), sizeof(address.sun_path) - 1));
  Socket sock(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (sock.fd() < 0) return Status::FromErrno(errno, "socket");
  if (::connect(sock.fd(), reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    if (errno != EAGAIN && errno != EINPROGRESS)
      return Status::Unavailable("connect " + path + ": " + std::strerror(errno));
    if (Status s = WaitFor(sock.fd(), POLLOUT, deadline); !s.ok())
      return Status::Unavailable("connect " + path + ": " + s.message());
  }
  return sock.Release();
}

}  // namespace

bool IsUnixSocket(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

StatusOr<HttpUrl> ParseHttpUrl(std::string_view text) {
  constexpr std::string_view kUnix = "unix:";
  if (text.substr(0, kUnix.size()) == kUnix) {
    HttpUrl url;
    url.unix_socket = std::string(text.substr(kUnix.size()));
    if (url.unix_socket.empty())
      return Status::InvalidArgument("'" + std::string(text) + "': no socket path");
    if (url.unix_socket.size() >= sizeof(sockaddr_un::sun_path))
      return Status::InvalidArgument("'" + std::string(text) + "': socket path too long");
    return url;
  }
  constexpr std::string_view kScheme = "http://";
  if (text.substr(0, 8) == "https://")
    return Status::InvalidArgument("'" + std::string(text) +
                                   "': https is not supported (the daemon serves plain http)");
  if (text.substr(0, kScheme.size()) != kScheme)
    return Status::InvalidArgument("'" + std::string(text) + "' is not an http:// URL");
  std::string_view rest = text.substr(kScheme.size());
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  HttpUrl url;
  if (slash != std::string_view::npos) url.path = std::string(rest.substr(slash));
  size_t colon = authority.rfind(':');
  url.host = std::string(authority.substr(0, colon));
  if (colon != std::string_view::npos) {
    std::string_view port = authority.substr(colon + 1);
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value == 0 ||
        value > 65535)
      return Status::InvalidArgument("'" + std::string(text) + "': bad port '" + std::string(port) +
                                     "'");
    url.port = static_cast<uint16_t>(value);
  }
  if (url.host.empty()) return Status::InvalidArgument("'" + std::string(text) + "': no host");
  if (url.host.find_first_of("[]@ ") != std::string::npos)
    return Status::InvalidArgument("'" + std::string(text) +
                                   "': only IPv4 addresses and host names are supported");
  return url;
}

StatusOr<FetchedPage> FetchUrl(const HttpUrl& url, Duration timeout, size_t max_body) {
  const auto deadline =
      SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(timeout);
  StatusOr<int> connected =
      url.unix_socket.empty() ? ConnectTcp(url, deadline) : ConnectUnix(url.unix_socket, deadline);
  if (!connected.ok()) return connected.status();
  Socket sock(*connected);
  const std::string request =
      "GET " + url.path + " HTTP/1.0\r\nHost: " + url.host + "\r\nConnection: close\r\n\r\n";
  for (size_t sent = 0; sent < request.size();) {
    if (Status s = WaitFor(sock.fd(), POLLOUT, deadline); !s.ok())
      return Status::Unavailable("send: " + s.message());
    ssize_t n = ::send(sock.fd(), request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN && errno != EINTR)
      return Status::Unavailable(std::string("send: ") + std::strerror(errno));
    if (n > 0) sent += static_cast<size_t>(n);
  }
  std::string answer;
  char buffer[16384];
  while (true) {
    if (Status s = WaitFor(sock.fd(), POLLIN, deadline); !s.ok())
      return Status::Unavailable("receive: " + s.message());
    ssize_t n = ::recv(sock.fd(), buffer, sizeof(buffer), 0);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return Status::Unavailable(std::string("receive: ") + std::strerror(errno));
    }
    answer.append(buffer, static_cast<size_t>(n));
    if (answer.size() > max_body + 64 * 1024) return Status::Corrupt("answer too large");
  }
  // "HTTP/1.x NNN reason\r\n" headers "\r\n\r\n" body
  size_t header_end = answer.find("\r\n\r\n");
  if (answer.rfind("HTTP/1.", 0) != 0 || answer.size() < 12 || header_end == std::string::npos)
    return Status::Corrupt("not an HTTP answer");
  FetchedPage page;
  auto [end, ec] = std::from_chars(answer.data() + 9, answer.data() + 12, page.status);
  if (ec != std::errc() || end != answer.data() + 12) return Status::Corrupt("bad HTTP status");
  page.body = answer.substr(header_end + 4);
  if (page.body.size() > max_body) return Status::Corrupt("answer too large");
  return page;
}

}  // namespace rocewatch
