#include "export/listening_socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "os/state_file_writer.h"  // EnsureDirectoryOf

namespace rocewatch {
namespace {

constexpr int kBacklog = 128;

class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  int fd() const { return fd_; }
  int Release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

std::string WhyCannotBind(int error, const ListenAddress& address) {
  const std::string port = std::to_string(address.port);
  if (error == EADDRINUSE)
    return "port " + port +
           " is already in use (another rocewatch, or another program, listens on it): stop it "
           "or choose another port with --listen";
  if (error == EACCES)
    return "permission denied for port " + port + " (ports below 1024 need " +
           "CAP_NET_BIND_SERVICE)";
  if (error == EADDRNOTAVAIL) return "address " + address.host + " is not on this host";
  return std::strerror(error);
}

// Whether a process accepts connections on the unix socket at `address`: 1 yes, 0 no (refused:
// a socket left by a process that died), -errno when that cannot be told.
int Answers(const sockaddr_un& address) {
  FdCloser probe(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (probe.fd() < 0) return -errno;
  if (::connect(probe.fd(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0)
    return 1;
  // EAGAIN: its backlog is full, so something is listening.
  if (errno == EAGAIN) return 1;
  return errno == ECONNREFUSED ? 0 : -errno;
}

}  // namespace

StatusOr<ListeningSocket> ListeningSocket::Tcp(const ListenAddress& address) {
  const std::string where = address.ToText();
  auto fail = [&](const std::string& why) {
    return Status::Unavailable("cannot listen on " + where + ": " + why);
  };
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(address.port);
  sa.sin_addr.s_addr = htonl(INADDR_ANY);
  if (!address.host.empty() && ::inet_pton(AF_INET, address.host.c_str(), &sa.sin_addr) != 1)
    return fail("'" + address.host + "' is not an IPv4 address");
  FdCloser fd(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (fd.fd() < 0) return fail(std::strerror(errno));
  int one = 1;
  ::setsockopt(fd.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (::bind(fd.fd(), reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) != 0)
    return fail(WhyCannotBind(errno, address));
  if (::listen(fd.fd(), kBacklog) != 0) return fail(std::strerror(errno));
  socklen_t length = sizeof(sa);
  if (::getsockname(fd.fd(), reinterpret_cast<sockaddr*>(&sa), &length) != 0)
    return fail(std::strerror(errno));
  return ListeningSocket(fd.Release(), ntohs(sa.sin_port), "", 0, 0);
}

StatusOr<ListeningSocket> ListeningSocket::Unix(const std::string& path) {
  auto fail = [&](const std::string& why) {
    return Status::Unavailable("cannot serve the local API on " + path + ": " + why);
  };
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(address.sun_path))
    return fail("a unix socket path has 1 to " + std::to_string(sizeof(address.sun_path) - 1) +
                " bytes");
  std::memcpy(address.sun_path, path.data(), path.size());
  if (Status made = EnsureDirectoryOf(path); !made.ok()) return fail(made.message());
  struct stat existing;
  if (::lstat(path.c_str(), &existing) == 0) {
    if (!S_ISSOCK(existing.st_mode))
      return fail(
          "it exists and is not a socket (left as it is: remove it or choose another "
          "path with --api-socket)");
    const int answers = Answers(address);
    if (answers == 1)
      return fail("another process answers on it (a rocewatch already running?): left as it is");
    if (answers < 0) return fail(std::string("cannot probe it: ") + std::strerror(-answers));
    // Nobody listens: a socket left by a daemon that died. Replaced.
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
      return fail(std::string("cannot remove the stale socket: ") + std::strerror(errno));
  } else if (errno != ENOENT) {
    return fail(std::strerror(errno));
  }
  FdCloser fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (fd.fd() < 0) return fail(std::strerror(errno));
  if (::bind(fd.fd(), reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0)
    return fail(std::strerror(errno));
  // The mode is set before listen(): until then a connect is refused, so nobody connects through
  // the mode the umask gave.
  struct stat bound;
  if (::chmod(path.c_str(), kUnixSocketMode) != 0 || ::lstat(path.c_str(), &bound) != 0 ||
      ::listen(fd.fd(), kBacklog) != 0) {
    const int saved = errno;
    ::unlink(path.c_str());
    return fail(std::strerror(saved));
  }
  return ListeningSocket(fd.Release(), 0, path, bound.st_dev, bound.st_ino);
}

ListeningSocket::ListeningSocket(ListeningSocket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      port_(other.port_),
      path_(std::move(other.path_)),
      device_(other.device_),
      inode_(other.inode_) {
  other.path_.clear();
}

ListeningSocket& ListeningSocket::operator=(ListeningSocket&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = std::exchange(other.fd_, -1);
    port_ = other.port_;
    path_ = std::move(other.path_);
    other.path_.clear();
    device_ = other.device_;
    inode_ = other.inode_;
  }
  return *this;
}

ListeningSocket::~ListeningSocket() { Close(); }

void ListeningSocket::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  struct stat now;
  if (!path_.empty() && ::lstat(path_.c_str(), &now) == 0 && now.st_dev == device_ &&
      now.st_ino == inode_)
    ::unlink(path_.c_str());
  path_.clear();
}

}  // namespace rocewatch
