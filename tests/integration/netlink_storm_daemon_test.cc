// A netlink storm against the real daemon: more than 50,000 rtnetlink events (address adds and
// removals with their local routes, carrier flaps) on an RNIC netdev of `rocewatch run`, in a
// network namespace of the test's own, while scrapers hit /metrics. Nothing crashes, no scrape
// fails, and when the storm ends /metrics shows exactly the final state of the link.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <thread>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/net_namespace.h"
#include "support/sanitizer.h"
#include "support/scrape_storm.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

constexpr char kStormRnic[] = "ens1f0np0";  // rail 0 of the fixture node
constexpr int kAdded = 25'000;  // each add and each removal: an address and a route event

// The daemon's peak resident memory (VmHWM of /proc/<pid>/status) in KiB, 0 if unreadable.
long PeakRssKiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  return 0;
}

// Regression test of the storm defect fixed in 2026-12 (docs/reliability.md): every address event
// copied the netdev's whole address list, so the daemon fell minutes behind the kernel, grew to
// 2.6 GB and missed SIGTERM. The bounds below are ~10x what the fixed daemon needs here.
TEST(NetlinkStormDaemonTest, FiftyThousandEventsEndInTheRightStateWithEveryScrapeAnswered) {
  auto ns = NetNamespace::Create("storm");
  if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
  ASSERT_TRUE((*ns)->AddVethPair(kStormRnic, "peer0").ok());
  ASSERT_TRUE((*ns)->Ip(std::string("addr add 10.0.0.2/24 dev ") + kStormRnic).ok());
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(1, 16)).ok());
  auto daemon = DaemonProcess::Start(
      {"--host-root", dir.path(), "--state-file", "", "--log-level", "warn"}, (*ns)->name());
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  // Each scrape must be answered within Prometheus's default scrape_timeout (10 s). Under a
  // sanitizer the daemon runs several times slower: a CI run under ASan, with a compile beside
  // it, left 11 of 173 scrapes unanswered after 10 s (the daemon 40.6 s behind the kernel, one
  // resync). There the bound is 30 s; an unanswered scrape still fails.
  const auto scrape_timeout = kUnderSanitizer ? std::chrono::seconds(30) : std::chrono::seconds(10);
  ScrapeStorm storm((*daemon)->port(), 4, std::chrono::milliseconds(20), scrape_timeout,
                    (*ns)->name());

  // Adds, a flap every 5,000 of them, then every address but each tenth removed.
  std::vector<std::string> commands;
  int kept = 0;
  for (int i = 0; i < kAdded; ++i) {
    commands.push_back("addr add 10.80." + std::to_string(i / 250) + "." +
                       std::to_string(i % 250 + 1) + "/32 dev " + kStormRnic);
    if (i % 5000 == 4999) {
      commands.push_back("link set peer0 down");
      commands.push_back("link set peer0 up");
    }
  }
  for (int i = 0; i < kAdded; ++i) {
    if (i % 10 == 0) {
      ++kept;
      continue;
    }
    commands.push_back("addr del 10.80." + std::to_string(i / 250) + "." +
                       std::to_string(i % 250 + 1) + "/32 dev " + kStormRnic);
  }
  const auto begin = std::chrono::steady_clock::now();
  ASSERT_TRUE((*ns)->IpBatch(commands).ok());
  const double storm_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

  const std::string addresses =
      std::string(R"(rocewatch_netdev_addresses{netdev=")") + kStormRnic + R"(",family="ipv4"})";
  // The final state must show within `converge` of the last command. The default build keeps up
  // with the kernel (0.00 s behind here): 10 s is its regression bound. Under a sanitizer the
  // daemon, the ip commands and the scrapers share 2 cores, several times slower, beside a compile
  // in CI (one run ended 60.3 s behind before the detector's evaluation became linear): there the
  // bound only catches a daemon that never converges; the speed is the default build's and the
  // benchmark's (bench/micro/netlink_storm_bench.cc).
  const auto converge = kUnderSanitizer ? std::chrono::seconds(180) : std::chrono::seconds(10);
  const auto storm_end = std::chrono::steady_clock::now();
  std::optional<double> seen;
  while (seen != 1 + kept && std::chrono::steady_clock::now() - storm_end < converge) {
    auto metrics = (*daemon)->Scrape();
    if (metrics.ok()) seen = FindSample(*metrics, addresses);
    if (seen != 1 + kept) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const double behind_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - storm_end).count();
  EXPECT_EQ(seen, 1 + kept) << "the final address count, " << behind_seconds
                            << " s after the last command";
  const long peak_rss_kib = PeakRssKiB((*daemon)->pid());
  if (!kUnderSanitizer) {
    EXPECT_LT(peak_rss_kib, 256 * 1024) << "peak RSS";
  }
  auto metrics = (*daemon)->Scrape();
  ASSERT_TRUE(metrics.ok());
  EXPECT_EQ(FindSample(*metrics,
                       std::string(R"(rocewatch_netdev_carrier{netdev=")") + kStormRnic + R"("})"),
            1);
  storm.Stop();
  EXPECT_EQ(storm.failed(), 0u) << ::testing::PrintToString(storm.failures());
  EXPECT_GT(storm.succeeded(), 0u);
  std::printf(
      "netlink storm: %zu ip commands in %.1f s; final state %.2f s after; peak RSS %ld KiB; "
      "resyncs %g; %llu scrapes ok\n",
      commands.size(), storm_seconds, behind_seconds, peak_rss_kib,
      FindSample(*metrics, "rocewatch_netlink_resyncs_total").value_or(-1),
      static_cast<unsigned long long>(storm.succeeded()));
  const auto stopping = std::chrono::steady_clock::now();
  // Up to 2 s of this is civetweb's mg_stop() after any connection (civetweb issue #1163, fixed
  // in 1.16; Debian 12 ships 1.15).
  EXPECT_EQ((*daemon)->Stop(std::chrono::seconds(5)), 0) << "SIGTERM honoured within 5 s";
  std::printf("netlink storm: stopped %.2f s after SIGTERM\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - stopping).count());
}

}  // namespace
}  // namespace rocewatch
