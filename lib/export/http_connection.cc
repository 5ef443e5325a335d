#include "export/http_connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace rocewatch {

size_t SendSome(int fd, const char* data, size_t size) {
  const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
  return n > 0 ? static_cast<size_t>(n) : 0;
}

std::string ClientOf(int fd, const sockaddr_storage& peer) {
  if (peer.ss_family == AF_INET) {
    char text[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(peer).sin_addr, text, sizeof(text));
    return text;
  }
  ucred credentials{};
  socklen_t length = sizeof(credentials);
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0)
    return "uid " + std::to_string(credentials.uid);
  return "unix";
}

}  // namespace rocewatch
