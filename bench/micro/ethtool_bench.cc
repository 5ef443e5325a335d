// What the ethtool reads of one poll cost on 16 netdevs (docs/benchmarks.md, "Link quality
// reads"), to choose --ethtool-interval and --optics-interval:
//   BM_EthtoolPollVeth16       the real paths on 16 veth netdevs in a namespace of its own (root):
//                              per netdev 2 ioctls (GSSET_INFO, GSTATS; names cached) and 4 ethtool
//                              netlink requests (FEC, LINKSTATE, PAUSE, STATS), plus the sysfs
//                              speed
//   BM_EthtoolPollRecorded16   the same poll from recordings on tmpfs shaped like mlx5 (a
//   64-channel
//                              port's ~1,900 driver statistics), with the detectors fed: the
//                              user-space cost of the biggest driver we interpret
//   BM_ModulePollRecorded16    the module pages of 16 CMIS modules from recordings, decoded and
//                              judged (the I2C time of real modules is not in it)
// Counter: requests (ioctls + netlink requests + file reads) per iteration.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "ethtool/ethtool_poller.h"
#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"
#include "ethtool/ioctl_driver_statistics_source.h"
#include "ethtool/libnl_ethtool_source.h"
#include "link_quality/ethtool_samples.h"
#include "link_quality/optics_detector.h"
#include "support/module_pages.h"
#include "support/net_namespace.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

constexpr int kNetdevs = 16;

std::set<std::string> NetdevNames() {
  std::set<std::string> names;
  for (int i = 0; i < kNetdevs; ++i) names.insert("rnic" + std::to_string(i));
  return names;
}

// 16 veth pairs rnic<i> <-> peer<i> in a namespace, with the live sources opened inside.
struct VethNode {
  std::unique_ptr<NetNamespace> ns;
  IoctlDriverStatisticsSource statistics;
  LibnlEthtoolSource netlink;
  Status status;
  VethNode() {
    auto created = NetNamespace::Create("ethbench");
    if (!created.ok()) {
      status = created.status();
      return;
    }
    ns = std::move(*created);
    for (int i = 0; i < kNetdevs && status.ok(); ++i)
      status = ns->AddVethPair("rnic" + std::to_string(i), "peer" + std::to_string(i));
    if (!status.ok()) return;
    Status opened = ns->RunInside([&] {
      status = statistics.Open();
      if (status.ok()) status = netlink.Open();
    });
    if (!opened.ok()) status = opened;
  }
};

void BM_EthtoolPollVeth16(benchmark::State& state) {
  static VethNode node;
  if (!node.status.ok()) {
    state.SkipWithError(("no veth namespace: " + node.status.ToString()).c_str());
    return;
  }
  PosixFileSystem fs;
  EthtoolPoller poller(fs, "/nonexistent-host-root", "/nonexistent-sysfs", &node.statistics,
                       &node.netlink);
  const std::set<std::string> names = NetdevNames();
  poller.Poll(names);  // the names of the driver statistics are read once, then cached
  const uint64_t before = poller.reads();
  size_t answered = 0;
  for (auto _ : state) {
    auto polled = poller.Poll(names);
    answered += polled.size();
    benchmark::DoNotOptimize(polled);
  }
  state.counters["requests"] = benchmark::Counter(static_cast<double>(poller.reads() - before),
                                                  benchmark::Counter::kAvgIterations);
  state.counters["netdevs"] =
      static_cast<double>(answered) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_EthtoolPollVeth16)->Unit(benchmark::kMicrosecond);

// A recorded mlx5 port with 63 channels: ~1,900 statistics, the interpreted ones among them.
std::string Mlx5Statistics(uint64_t step) {
  DriverStatistics s;
  for (const char* name :
       {"rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "rx_packets_phy", "rx_bytes_phy",
        "rx_crc_errors_phy", "rx_symbol_err_phy", "rx_discards_phy", "link_down_events_phy",
        "rx_pcs_symbol_err_phy", "tx_pause_storm_warning_events", "tx_pause_storm_error_events"})
    s.counters.emplace_back(name, step);
  s.counters.emplace_back("rx_corrected_bits_phy", step * 1000);
  for (int lane = 0; lane < 4; ++lane)
    s.counters.emplace_back("rx_err_lane_" + std::to_string(lane) + "_phy", step * 250);
  for (int prio = 0; prio < 8; ++prio)
    for (const char* suffix : {"_bytes", "_packets", "_pause", "_pause_duration", "_discards"})
      for (const char* dir : {"rx_prio", "tx_prio"})
        s.counters.emplace_back(dir + std::to_string(prio) + suffix, step * 7);
  for (int channel = 0; channel < 63; ++channel)
    for (const char* field : {"packets",           "bytes",
                              "csum_complete",     "csum_unnecessary",
                              "xdp_drop",          "xdp_redirect",
                              "lro_packets",       "lro_bytes",
                              "ecn_mark",          "removed_vlan",
                              "wqe_err",           "mpwqe_filler",
                              "buff_alloc_err",    "cqe_compress_blks",
                              "cqe_compress_pkts", "page_reuse",
                              "cache_reuse",       "cache_full",
                              "cache_empty",       "cache_busy",
                              "cache_waive",       "congst_umr",
                              "arfs_err",          "recover",
                              "xsk_drop",          "xsk_redirect",
                              "tls_decrypted",     "tls_resync",
                              "tx_packets",        "tx_bytes"})
      s.counters.emplace_back("ch" + std::to_string(channel) + "_" + field, step);
  return FormatDriverStatisticsText(s);
}

void BM_EthtoolPollRecorded16(benchmark::State& state) {
  TempDir root;
  for (const std::string& netdev : NetdevNames()) {
    const std::string dir = "rocewatch/ethtool/" + netdev + "/";
    root.WriteFile(dir + "statistics", Mlx5Statistics(1));
    root.WriteFile(dir + "fec", "corrected_blocks: 10\nuncorrectable_blocks: 0\n");
    root.WriteFile(dir + "link_state", "link: yes\n");
    root.WriteFile(dir + "pause", "unsupported\n");
    root.WriteFile("sys/class/net/" + netdev + "/speed", "400000\n");
  }
  PosixFileSystem fs;
  EthtoolPoller poller(fs, root.path(), root.path() + "/sys", nullptr, nullptr);
  LinkQualityDetector quality;
  PfcStormDetector pfc;
  const std::set<std::string> names = NetdevNames();
  MonoTime now{};
  size_t statistics = 0;
  for (auto _ : state) {
    now += std::chrono::seconds(10);
    std::map<std::string, LinkQualitySample> quality_samples;
    std::map<std::string, PfcSample> pfc_samples;
    for (auto& [netdev, readings] : poller.Poll(names)) {
      statistics += readings.driver ? readings.driver->counters.size() : 0;
      quality_samples[netdev] = LinkQualitySampleFrom(now, readings, true);
      pfc_samples[netdev] = PfcSampleFrom(now, readings);
    }
    quality.Observe(quality_samples);
    pfc.Observe(pfc_samples);
  }
  state.counters["statistics_per_netdev"] =
      static_cast<double>(statistics) / static_cast<double>(state.iterations() * kNetdevs);
}
BENCHMARK(BM_EthtoolPollRecorded16)->Unit(benchmark::kMicrosecond);

void BM_ModulePollRecorded16(benchmark::State& state) {
  TempDir root;
  ModuleValues values = HealthyQuadLanes();
  values.rx_power_watts.resize(8, 0.5e-3);
  values.tx_power_watts.resize(8, 0.7e-3);
  values.tx_bias_amperes.resize(8, 6e-3);
  for (const std::string& netdev : NetdevNames())
    for (const auto& [address, bytes] : CmisPages(values))
      root.WriteFile("rocewatch/ethtool/" + netdev + "/module/" + ModulePageFileName(address),
                     bytes);
  PosixFileSystem fs;
  EthtoolPoller poller(fs, root.path(), root.path() + "/sys", nullptr, nullptr);
  const uint64_t before = poller.reads();
  for (auto _ : state) {
    for (const std::string& netdev : NetdevNames()) {
      ModuleOutcome outcome = poller.PollModule(netdev);
      if (outcome.module) benchmark::DoNotOptimize(EvaluateOptics(*outcome.module));
    }
  }
  state.counters["pages"] = benchmark::Counter(static_cast<double>(poller.reads() - before),
                                               benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_ModulePollRecorded16)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rocewatch
