// The HTTP surface under a slowloris attack from another address on loopback (127.0.0.2): idle
// connections and connections that dribble their head a byte at a time, re-opened as fast as the
// server drops them, for a bounded time. A liveness probe from 127.0.0.1 with the kubelet's 3 s
// timeout is answered every time, and the times it took are printed (docs/reliability.md).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "export/metrics_server.h"
#include "support/http_client.h"

namespace rocewatch {
namespace {

using SteadyClock = std::chrono::steady_clock;

// A connection from 127.0.0.2 to the server; -1 when it could not be made.
int ConnectFromSecondLoopbackAddress(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_in source{};
  source.sin_family = AF_INET;
  ::inet_pton(AF_INET, "127.0.0.2", &source.sin_addr);
  sockaddr_in target{};
  target.sin_family = AF_INET;
  target.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &target.sin_addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&source), sizeof(source)) != 0 ||
      (::connect(fd, reinterpret_cast<sockaddr*>(&target), sizeof(target)) != 0 &&
       errno != EINPROGRESS)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Keeps `count` attacker connections open until stopped: half idle, half sending "GET /metrics
// HTTP/1.1\r\nX-a: " one byte every 100 ms and never the blank line; each one the server closes
// is re-opened at once.
class Slowloris {
 public:
  Slowloris(int port, int count) : port_(port), count_(count) {
    thread_ = std::thread([this] { Run(); });
  }
  ~Slowloris() {
    stop_ = true;
    thread_.join();
  }
  int opened() const { return opened_; }

 private:
  void Run() {
    const std::string dribble = "GET /metrics HTTP/1.1\r\nX-a: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    std::vector<int> fds(count_, -1);
    std::vector<size_t> sent(count_, 0);
    while (!stop_) {
      for (int i = 0; i < count_; ++i) {
        char byte;
        if (fds[i] >= 0) {
          pollfd p{fds[i], POLLIN, 0};
          if (::poll(&p, 1, 0) > 0 && ::recv(fds[i], &byte, 1, MSG_PEEK | MSG_DONTWAIT) <= 0) {
            ::close(fds[i]);  // closed by the server (or refused): open another
            fds[i] = -1;
          } else if (p.revents & POLLIN) {
            ::close(fds[i]);  // the server answered (408, 503) and will close
            fds[i] = -1;
          }
        }
        if (fds[i] < 0) {
          fds[i] = ConnectFromSecondLoopbackAddress(port_);
          sent[i] = 0;
          ++opened_;
        }
        if (fds[i] >= 0 && i % 2 == 1 && sent[i] < dribble.size())
          sent[i] += std::max<ssize_t>(0, ::send(fds[i], &dribble[sent[i]], 1, MSG_NOSIGNAL));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  }

  const int port_;
  const int count_;
  std::atomic<bool> stop_{false};
  std::atomic<int> opened_{0};
  std::thread thread_;
};

TEST(MetricsServerSlowlorisTest, TheLivenessProbeIsAnsweredEveryTimeWithinItsTimeout) {
  // The metrics callback takes 200 ms, like a busy daemon loop: scrapes queue on the document
  // thread, which never delays /healthz.
  auto exposition = std::make_shared<const ServedText>("rocewatch_build_info 1\n");
  MetricsServer::Endpoints endpoints{[exposition] {
                                       std::this_thread::sleep_for(std::chrono::milliseconds(200));
                                       return exposition;
                                     },
                                     [] { return MetricsServer::Health::kLive; }, nullptr};
  auto server = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), endpoints);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const int port = (*server)->port();
  // 200 attacker connections: far past the per-client bound (8) and the total (64).
  Slowloris attack(port, 200);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  std::vector<double> probe_ms;
  int scrapes_ok = 0;
  const auto end = SteadyClock::now() + std::chrono::seconds(8);
  while (SteadyClock::now() < end) {
    const auto start = SteadyClock::now();
    auto probe = HttpGet("127.0.0.1", port, "/healthz", std::chrono::seconds(3));
    probe_ms.push_back(
        std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count());
    ASSERT_TRUE(probe.ok()) << "probe " << probe_ms.size() << ": " << probe.status().ToString();
    EXPECT_EQ(probe->status, 200);
    auto scrape = HttpGet("127.0.0.1", port, "/metrics", std::chrono::seconds(3));
    scrapes_ok += scrape.ok() && scrape->status == 200;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  std::sort(probe_ms.begin(), probe_ms.end());
  ASSERT_FALSE(probe_ms.empty());
  const double median = probe_ms[probe_ms.size() / 2], max = probe_ms.back();
  std::printf(
      "slowloris: %d attacker connections opened; %zu probes, /healthz median %.2f ms, "
      "max %.2f ms; %d/%zu scrapes ok\n",
      attack.opened(), probe_ms.size(), median, max, scrapes_ok, probe_ms.size());
  RecordProperty("healthz_median_ms", std::to_string(median));
  RecordProperty("healthz_max_ms", std::to_string(max));
  EXPECT_GT(attack.opened(), 200) << "the server never closed an attacker's connection";
  EXPECT_LT(max, 3000);
  EXPECT_EQ(scrapes_ok, static_cast<int>(probe_ms.size()));
}

TEST(MetricsServerSlowlorisTest, OneClientGetsAtMostItsBoundOfConnections) {
  MetricsServer::Endpoints endpoints{nullptr, [] { return MetricsServer::Health::kLive; }, nullptr};
  HttpLimits limits;
  limits.max_per_client = 3;
  limits.header_deadline = std::chrono::seconds(30);
  auto server = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), endpoints, "", limits);
  ASSERT_TRUE(server.ok());
  std::vector<int> held;
  for (int i = 0; i < 3; ++i) held.push_back(ConnectFromSecondLoopbackAddress((*server)->port()));
  // The fourth from the same address is answered 503 and closed; another address is served.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  int fourth = ConnectFromSecondLoopbackAddress((*server)->port());
  pollfd p{fourth, POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 3000), 1);
  char answer[256] = {};
  ASSERT_GT(::recv(fourth, answer, sizeof(answer) - 1, 0), 0);
  EXPECT_EQ(std::string(answer).rfind("HTTP/1.1 503", 0), 0u) << answer;
  auto other = HttpGet("127.0.0.1", (*server)->port(), "/healthz", std::chrono::seconds(3));
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->status, 200);
  ::close(fourth);
  for (int fd : held) ::close(fd);
}

TEST(MetricsServerSlowlorisTest, AHeadNotSentWithinTheDeadlineIsAnswered408AndClosed) {
  MetricsServer::Endpoints endpoints{nullptr, [] { return MetricsServer::Health::kLive; }, nullptr};
  HttpLimits limits;
  limits.header_deadline = std::chrono::milliseconds(300);
  auto server = MetricsServer::Start(*ParseListenAddress("127.0.0.1:0"), endpoints, "", limits);
  ASSERT_TRUE(server.ok());
  int fd = ConnectFromSecondLoopbackAddress((*server)->port());
  const auto start = SteadyClock::now();
  std::string answer;
  char buffer[256];
  while (SteadyClock::now() - start < std::chrono::seconds(3)) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    answer.append(buffer, static_cast<size_t>(n));
  }
  const auto took = SteadyClock::now() - start;
  ::close(fd);
  EXPECT_EQ(answer.rfind("HTTP/1.1 408", 0), 0u) << answer;
  EXPECT_GE(took, std::chrono::milliseconds(250));
  EXPECT_LT(took, std::chrono::seconds(2));
}

}  // namespace
}  // namespace rocewatch
