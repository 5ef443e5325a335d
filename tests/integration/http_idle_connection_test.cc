// Idle connections to the real daemon, on loopback, with its default limits (docs/reliability.md,
// "The HTTP surface"): a peer that connects and sends nothing is answered 408 and closed once the
// 2 s request-head deadline has passed, and a peer that asks for keep-alive is answered and closed
// at once, so that no connection idles between requests.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "support/daemon_process.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

// What a peer saw on one connection: the bytes received, whether the server closed it (rather
// than the bound running out) and when, from the connect.
struct Seen {
  std::string received;
  bool closed_by_server = false;
  SteadyClock::duration took{};
};

// Connects to 127.0.0.1:port, sends `request` (may be empty: an idle peer), then reads until the
// server closes or `bound` has passed.
Seen Converse(int port, const std::string& request, SteadyClock::duration bound) {
  Seen seen;
  const auto start = SteadyClock::now();
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in target{};
  target.sin_family = AF_INET;
  target.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &target.sin_addr);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&target), sizeof(target)) != 0) {
    if (fd >= 0) ::close(fd);
    return seen;
  }
  if (!request.empty() && ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) < 0) {
    ::close(fd);
    return seen;
  }
  char buffer[4096];
  while (SteadyClock::now() - start < bound) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) {  // end of stream (or a reset): the server closed the connection
      seen.closed_by_server = true;
      break;
    }
    seen.received.append(buffer, static_cast<size_t>(n));
  }
  seen.took = SteadyClock::now() - start;
  ::close(fd);
  return seen;
}

class HttpIdleConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", RailNode(1)).ok());
    auto daemon = DaemonProcess::Start({"--host-root", dir_.path(), "--state-file", ""});
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    daemon_ = std::move(daemon).value();
  }

  TempDir dir_;
  std::unique_ptr<DaemonProcess> daemon_;
};

TEST_F(HttpIdleConnectionTest, AnIdlePeerIsAnswered408AndClosedAfterTheHeadDeadline) {
  const Seen seen = Converse(daemon_->port(), "", seconds(8));
  ASSERT_TRUE(seen.closed_by_server) << "still open after 8 s: " << seen.received;
  EXPECT_EQ(seen.received.rfind("HTTP/1.1 408", 0), 0u) << seen.received;
  // The documented deadline is 2 s from the accept (HttpLimits::header_deadline); the server's
  // socket thread wakes at the nearest deadline, so it is closed then, not a period later.
  EXPECT_GE(seen.took, milliseconds(1900));
  EXPECT_LT(seen.took, seconds(4));
  // The daemon still answers.
  auto health = daemon_->Get("/healthz");
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->status, 200);
}

TEST_F(HttpIdleConnectionTest, AKeepAliveRequestIsAnsweredThenClosedNotKeptIdle) {
  const Seen seen = Converse(daemon_->port(),
                             "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             "Connection: keep-alive\r\n\r\n",
                             seconds(8));
  ASSERT_TRUE(seen.closed_by_server) << "still open after 8 s: " << seen.received;
  EXPECT_EQ(seen.received.rfind("HTTP/1.1 200", 0), 0u) << seen.received;
  EXPECT_NE(seen.received.find("Connection: close\r\n"), std::string::npos) << seen.received;
  // Closed with the answer, well before any deadline (the head deadline is 2 s).
  EXPECT_LT(seen.took, seconds(1));
}

}  // namespace
}  // namespace rocewatch
