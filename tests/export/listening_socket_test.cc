// The local API socket on a host in a bad state: each case is a one-line error naming the path,
// and the TCP port is served regardless.
#include "export/listening_socket.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "export/http_fetch.h"
#include "export/metrics_server.h"
#include "support/http_client.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

MetricsServer::Endpoints Live() {
  return {[] { return std::make_shared<const ServedText>("rocewatch_build_info 1\n"); },
          [] { return MetricsServer::Health::kLive; },
          [] { return std::make_shared<const std::string>(R"({"findings":[],"events":[]})"); }};
}

// A unix socket bound at `path` that nobody listens on: what a daemon killed with SIGKILL leaves.
void LeaveStaleSocket(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ::close(fd);
}

TEST(ListeningSocketTest, ServesTheApiOnAUnixSocketWithMode0660InADirectoryItCreates) {
  TempDir dir;
  const std::string path = dir.path() + "/run/rocewatch.sock";
  auto server = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), Live(), path);
  ASSERT_TRUE(server.ok());
  ASSERT_TRUE((*server)->unix_socket_status().ok()) << (*server)->unix_socket_status().ToString();
  struct stat st;
  ASSERT_EQ(::lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0660u);
  ASSERT_EQ(::stat((dir.path() + "/run").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  for (const char* page : {"/api/v1/findings", "/metrics", "/healthz"}) {
    HttpUrl url{"", 0, page, path};
    auto fetched = FetchUrl(url, std::chrono::seconds(3));
    ASSERT_TRUE(fetched.ok()) << page << ": " << fetched.status().ToString();
    EXPECT_EQ(fetched->status, 200) << page;
  }
  server->reset();
  EXPECT_NE(::lstat(path.c_str(), &st), 0) << "the socket is removed at stop";
}

TEST(ListeningSocketTest, APathThatIsNotASocketIsLeftAloneAndTheTcpPortStillServed) {
  TempDir dir;
  const std::string path = dir.path() + "/rocewatch.sock";
  std::ofstream(path) << "precious\n";
  auto server = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), Live(), path);
  ASSERT_TRUE(server.ok());
  const Status& status = (*server)->unix_socket_status();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("not a socket"), std::string::npos) << status.message();
  EXPECT_EQ(status.message().find('\n'), std::string::npos);
  std::ifstream in(path);
  std::string content;
  std::getline(in, content);
  EXPECT_EQ(content, "precious");
  auto health = HttpGet("127.0.0.1", (*server)->port(), "/healthz");
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->status, 200);
}

TEST(ListeningSocketTest, AStaleSocketOfADeadDaemonIsReplaced) {
  TempDir dir;
  const std::string path = dir.path() + "/rocewatch.sock";
  LeaveStaleSocket(path);
  ASSERT_FALSE(FetchUrl(HttpUrl{"", 0, "/healthz", path}, std::chrono::seconds(1)).ok());
  auto server = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), Live(), path);
  ASSERT_TRUE(server.ok());
  ASSERT_TRUE((*server)->unix_socket_status().ok()) << (*server)->unix_socket_status().ToString();
  auto fetched = FetchUrl(HttpUrl{"", 0, "/healthz", path}, std::chrono::seconds(3));
  ASSERT_TRUE(fetched.ok()) << fetched.status().ToString();
  EXPECT_EQ(fetched->status, 200);
}

TEST(ListeningSocketTest, ASocketALiveDaemonAnswersOnIsRefusedAndKeepsWorking) {
  TempDir dir;
  const std::string path = dir.path() + "/rocewatch.sock";
  auto first = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), Live(), path);
  ASSERT_TRUE(first.ok() && (*first)->unix_socket_status().ok());
  auto second = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), Live(), path);
  ASSERT_TRUE(second.ok());
  const Status& status = (*second)->unix_socket_status();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(path), std::string::npos);
  EXPECT_NE(status.message().find("another process answers"), std::string::npos)
      << status.message();
  second->reset();  // must not remove the first one's socket
  auto fetched = FetchUrl(HttpUrl{"", 0, "/healthz", path}, std::chrono::seconds(3));
  ASSERT_TRUE(fetched.ok()) << fetched.status().ToString();
  EXPECT_EQ(fetched->status, 200);
}

TEST(ListeningSocketTest, ADirectoryWithoutWritePermissionIsAClearError) {
  TempDir dir;
  ::chmod(dir.path().c_str(), 0755);
  const std::string locked = dir.path() + "/locked";
  ASSERT_EQ(::mkdir(locked.c_str(), 0555), 0);
  const std::string path = locked + "/rocewatch.sock";
  // As root, permissions do not apply: the attempt runs in a child as nobody (uid 65534).
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) _exit(3);
    auto socket = ListeningSocket::Unix(path);
    const std::string message = socket.ok() ? "bound" : socket.status().message();
    [[maybe_unused]] ssize_t n = ::write(pipe_fds[1], message.data(), message.size());
    _exit(0);
  }
  ::close(pipe_fds[1]);
  std::string message;
  char buffer[512];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof(buffer))) > 0;)
    message.append(buffer, static_cast<size_t>(n));
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::chmod(locked.c_str(), 0755);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "could not drop to nobody";
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
}

}  // namespace
}  // namespace rocewatch
