#include "support/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace rocewatch {

StatusOr<HttpResponse> HttpGet(const std::string& host, int port, const std::string& path,
                               std::chrono::milliseconds timeout, const std::string& source) {
  return HttpExchange(host, port, "GET " + path + " HTTP/1.0\r\nHost: " + host + "\r\n\r\n",
                      timeout, source);
}

std::string LoopbackClientAddress(int i) { return "127.0.1." + std::to_string(1 + (i % 250)); }

StatusOr<HttpResponse> HttpExchange(const std::string& host, int port, const std::string& request,
                                    std::chrono::milliseconds timeout, const std::string& source) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return Status::FromErrno(errno, "socket");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
    close(fd);
    return Status::InvalidArgument("bad host " + host);
  }
  auto wait_for = [&](short events) -> bool {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    return ::poll(&p, 1, static_cast<int>(left.count())) == 1;
  };
  if (!source.empty()) {
    sockaddr_in local{};
    local.sin_family = AF_INET;
    if (inet_pton(AF_INET, source.c_str(), &local.sin_addr) != 1 ||
        bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof(local)) != 0) {
      int saved = errno;
      close(fd);
      return Status::FromErrno(saved == 0 ? EINVAL : saved, "bind " + source);
    }
  }
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 && errno != EINPROGRESS) {
    int saved = errno;
    close(fd);
    return Status::FromErrno(saved, "connect");
  }
  if (!wait_for(POLLOUT)) {
    close(fd);
    return Status::IoError("connect timed out");
  }
  int so_error = 0;
  socklen_t len = sizeof(so_error);
  getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
  if (so_error != 0) {
    close(fd);
    return Status::FromErrno(so_error, "connect " + host + ":" + std::to_string(port));
  }
  size_t sent = 0;
  while (sent < request.size()) {
    if (!wait_for(POLLOUT)) break;
    ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  std::string raw;
  char buffer[16384];
  while (wait_for(POLLIN)) {
    ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    raw.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  if (raw.compare(0, 5, "HTTP/") != 0) return Status::IoError("no HTTP response");
  HttpResponse response;
  response.status = std::atoi(raw.c_str() + raw.find(' ') + 1);
  size_t body = raw.find("\r\n\r\n");
  response.head = raw.substr(0, body);
  if (body != std::string::npos) response.body = raw.substr(body + 4);
  return response;
}

std::optional<double> FindSample(const std::string& exposition, const std::string& series) {
  std::istringstream lines(exposition);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.size() > series.size() && line.compare(0, series.size(), series) == 0 &&
        line[series.size()] == ' ')
      return std::strtod(line.c_str() + series.size() + 1, nullptr);
  }
  return std::nullopt;
}

}  // namespace rocewatch
