#pragma once
// The sockets the metrics server accepts on: a TCP port (--listen) and a local unix socket
// (--api-socket). Opening one is where a host's bad state shows (port in use, a path that is not a
// socket, a stale socket, a directory without write permission): each gives one line naming the
// port or path. Both are non-blocking and close-on-exec.

#include <sys/types.h>

#include <string>

#include "core/status.h"
#include "export/listen_address.h"

namespace rocewatch {

// The mode of the unix socket: owner and group may connect (connect(2) needs write permission),
// others not. docs/reliability.md says why.
inline constexpr mode_t kUnixSocketMode = 0660;

class ListeningSocket {
 public:
  // Binds and listens on `address`. Errors: Unavailable with the reason in words (port in use,
  // permission, an address not on this host).
  static StatusOr<ListeningSocket> Tcp(const ListenAddress& address);
  // Binds and listens on the unix socket `path`, mode kUnixSocketMode, creating its directory
  // (one level, 0755) when missing. A socket already at `path` that nobody answers on (a daemon
  // that died) is replaced; one that answers is left alone (Unavailable), and so is anything that
  // is not a socket (Unavailable). Errors name the path.
  static StatusOr<ListeningSocket> Unix(const std::string& path);
  // No socket (fd() is -1).
  static ListeningSocket Closed() { return ListeningSocket(-1, 0, "", 0, 0); }

  ListeningSocket(ListeningSocket&& other) noexcept;
  ListeningSocket& operator=(ListeningSocket&& other) noexcept;
  ListeningSocket(const ListeningSocket&) = delete;
  ListeningSocket& operator=(const ListeningSocket&) = delete;
  // Closes the socket; a unix socket's path is removed if it is still the one bound here.
  ~ListeningSocket();

  int fd() const { return fd_; }
  // TCP: the bound port (the chosen one for port 0); unix: 0.
  int port() const { return port_; }
  // Unix: the path; TCP: "".
  const std::string& path() const { return path_; }

 private:
  ListeningSocket(int fd, int port, std::string path, dev_t device, ino_t inode)
      : fd_(fd), port_(port), path_(std::move(path)), device_(device), inode_(inode) {}
  void Close();

  int fd_ = -1;
  int port_ = 0;
  std::string path_;
  dev_t device_ = 0;  // of the unix socket's inode, so that only ours is removed
  ino_t inode_ = 0;
};

}  // namespace rocewatch
