// Open incidents across a restart of the daemon on the same boot: the netlink, GID drift and
// traffic components (and the LLDP and ethtool ones) keeping their incidents on the node state, in
// a Monitor on a fake clock, a scripted rtnetlink source standing for the host's netdevs, the
// state file in a fake file system. A "restart" destroys every object but the host and the file
// system, and builds them again.
#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "daemon/monitor.h"
#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"
#include "fabric/lldp_component.h"
#include "gid_drift/gid_drift_component.h"
#include "link_quality/ethtool_component.h"
#include "netdev_health/netlink_component.h"
#include "support/fake_clock.h"
#include "support/fake_file_system.h"
#include "support/fake_lldp_socket.h"
#include "support/fake_rtnetlink_source.h"
#include "support/http_client.h"
#include "support/lldp_frames.h"
#include "support/netlink_builders.h"
#include "support/no_kernel_ethtool.h"
#include "support/node_builder.h"
#include "support/test_times.h"
#include "traffic/traffic_component.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr const char* kStatePath = "/var/lib/rocewatch/state.json";
constexpr const char* kBootIdPath = "/proc/sys/kernel/random/boot_id";
constexpr int kRails = 3;

std::string Netdev(int r) { return "rnic" + std::to_string(r); }
std::string Address(int r) { return "10.0." + std::to_string(r) + ".2/24"; }
PolicyRule RuleOf(int r) { return MakeRule("10.0." + std::to_string(r) + ".2/32", 100 + r, 1000); }

// The host: three rails mlx5_R on rnicR (10.0.R.2/24, `from 10.0.R.2 lookup 10R`) whose byte
// counters advance at their rates whenever a snapshot is taken; what rtnetlink would dump.
class Host final : public SnapshotSource {
 public:
  explicit Host(const Clock& clock) : clock_(clock), last_(clock.Now()) {
    for (int r = 0; r < kRails; ++r) {
      node_.devices.push_back(RoceDevice("mlx5_" + std::to_string(r), Netdev(r), {}));
      rates.push_back(kBusyRailRate);
      netlink.links.push_back(MakeLink(10 + r, Netdev(r), true, 1));
      netlink.addresses.push_back(MakeAddress(10 + r, Address(r)));
      netlink.rules.push_back(MakeRuleMessage(RuleOf(r)));
    }
  }
  StatusOr<NodeSnapshot> Take() override {
    const double dt = ToSeconds(clock_.Now() - last_);
    last_ = clock_.Now();
    for (size_t r = 0; r < node_.devices.size(); ++r) {
      PortCounters& c = node_.devices[r].ports[0].counters;
      const auto half = static_cast<uint64_t>(rates[r] * dt / 2);
      c.transmit_bytes = c.transmit_bytes.value_or(0) + half;
      c.receive_bytes = c.receive_bytes.value_or(0) + half;
    }
    NodeSnapshot copy = node_;
    copy.taken_at = clock_.Now();
    return copy;
  }
  const char* gid_source_name() const override { return "sysfs"; }
  void RemoveRail(int r) {
    node_.devices.erase(node_.devices.begin() + r);
    rates.erase(rates.begin() + r);
    std::erase_if(netlink.links, [&](const LinkMessage& l) { return l.name == Netdev(r); });
  }

  std::vector<double> rates;
  NetlinkDump netlink;

 private:
  const Clock& clock_;
  MonoTime last_;
  NodeSnapshot node_;
};

// A StateFileWriter onto the fake file system, so that the next run reads what this one wrote.
class FileSystemWriter final : public StateFileWriter {
 public:
  explicit FileSystemWriter(FakeFileSystem& fs) : fs_(fs) {}
  Status WriteAtomically(const std::string& path, const std::string& content) override {
    ++writes;
    fs_.AddFile(path, content);
    return Status::Ok();
  }
  int writes = 0;

 private:
  FakeFileSystem& fs_;
};

// What a run has beside the netlink, GID drift and traffic components: the LLDP
// component receiving on the host's rails through `lldp`, the ethtool component reading the
// recordings under / of the file system.
struct RunWith {
  FakeLldpNetwork* lldp = nullptr;
  bool ethtool = false;
};

// One run of the daemon: its loop, Monitor and components, on the shared host and files.
class DaemonRun {
 public:
  DaemonRun(FakeClock& clock, Host& host, FakeFileSystem& fs, RunWith with = {})
      : clock_(clock),
        loop_(clock),
        monitor_(loop_, host, {seconds(1), milliseconds(100)}),
        writer_(fs),
        store_(fs, writer_, kStatePath, kBootIdPath) {
    auto source = std::make_unique<FakeRtnetlinkSource>();
    netlink_source_ = source.get();
    netlink_source_->set_dump(host.netlink);
    NetlinkComponent::Options options;
    options.health.ip_loss.grace = seconds(3);
    auto netlink = std::make_unique<NetlinkComponent>(options, std::move(source));
    netlink->KeepIncidents();
    auto traffic = std::make_unique<TrafficComponent>(TrafficOptions{}, milliseconds(500));
    traffic->KeepIncidents();
    GidDriftOptions drift_options;
    drift_options.kept_incidents = {StatePart::kNetdevIncidents, StatePart::kRailIncidents};
    std::unique_ptr<LldpComponent> far_ends;
    if (with.lldp != nullptr) {
      far_ends = std::make_unique<LldpComponent>(LldpOptions{}, with.lldp->Opener(), nullptr);
      far_ends->KeepIncidents();
      drift_options.kept_incidents.Add(StatePart::kFarEnds);
    }
    std::unique_ptr<EthtoolComponent> ethtool;
    if (with.ethtool) {
      ethtool = std::make_unique<EthtoolComponent>(EthtoolOptions{}, fs, HostPaths::ForRoots("/"),
                                                   NoKernelEthtoolSources());
      ethtool->KeepIncidents();
      drift_options.kept_incidents.Add(StatePart::kLinkVerdicts);
    }
    // Registered in the daemon's order; the Monitor runs the GID drift component (the state
    // file's owner) first, since the others read what it restored.
    monitor_.AddComponent(std::move(netlink));
    monitor_.AddComponent(std::make_unique<GidDriftComponent>(store_, nullptr, drift_options));
    monitor_.AddComponent(std::move(traffic));
    if (far_ends) monitor_.AddComponent(std::move(far_ends));
    if (ethtool) monitor_.AddComponent(std::move(ethtool));
    monitor_.SetEventObserver([this](double, std::string_view what) { events.emplace_back(what); });
  }
  ~DaemonRun() { monitor_.Stop(); }

  void Start() { ASSERT_TRUE(monitor_.Start().ok()); }
  void RunFor(Duration d) {
    for (Duration passed{}; passed < d; passed += milliseconds(100)) {
      clock_.Advance(milliseconds(100));
      loop_.RunOnce(Duration::zero());
    }
  }
  // A message as the kernel would multicast it, also applied to the host's dump by the caller.
  void Push(NetlinkMessage m) {
    std::visit([&](auto& x) { x.at = clock_.Now(); }, m);
    netlink_source_->Push(std::move(m));
  }
  std::optional<double> Sample(const std::string& series) const {
    return FindSample(prometheus::TextSerializer().Serialize(monitor_.BuildExposition()), series);
  }
  // The published finding of `check` on `subject`, or null.
  const TimedFinding* Finding(const std::string& check, const std::string& subject) const {
    for (const TimedFinding& f : monitor_.timed_findings())
      if (f.finding.check == check && f.finding.subject == subject) return &f;
    return nullptr;
  }
  bool HasEventWith(const std::string& text) const {
    for (const std::string& e : events)
      if (e.find(text) != std::string::npos) return true;
    return false;
  }

  std::vector<std::string> events;
  int writes() const { return writer_.writes; }

 private:
  FakeClock& clock_;
  EventLoop loop_;
  Monitor monitor_;
  FileSystemWriter writer_;
  GidStateStore store_;
  FakeRtnetlinkSource* netlink_source_ = nullptr;
};

// Captures spdlog output for the life of the object.
class RestartLogCapture {
 public:
  RestartLogCapture() : previous_(spdlog::default_logger()) {
    auto logger = std::make_shared<spdlog::logger>(
        "capture", std::make_shared<spdlog::sinks::ostream_sink_st>(stream_));
    logger->set_pattern("%l %v");
    spdlog::set_default_logger(logger);
  }
  ~RestartLogCapture() { spdlog::set_default_logger(previous_); }
  std::string text() const { return stream_.str(); }

 private:
  std::ostringstream stream_;
  std::shared_ptr<spdlog::logger> previous_;
};

constexpr const char* kIpMissing = "rocewatch_ip_missing{netdev=\"rnic1\"}";
constexpr const char* kRulesMissing = "rocewatch_policy_rules_missing{netdev=\"rnic0\"}";
constexpr const char* kRail2Collapsed =
    "rocewatch_traffic_state{device=\"mlx5_2\",port=\"1\",state=\"collapsed\"}";

std::string Restored(const std::string& check, const std::string& status) {
  return "rocewatch_restored_incidents{check=\"" + check + "\",status=\"" + status + "\"}";
}

class RestartStateTest : public ::testing::Test {
 protected:
  RestartStateTest() : host_(clock_) { fs_.AddFile(kBootIdPath, "boot-a\n"); }

  // The first run: baselines learned, then three incidents open: rnic0's policy rule is wiped,
  // rnic1 flaps and its address never comes back, mlx5_2 stops while its siblings carry on.
  // Returns the run, still running, with the three findings' first-seen times.
  std::unique_ptr<DaemonRun> OpenThreeIncidents() {
    auto run = std::make_unique<DaemonRun>(clock_, host_, fs_);
    run->Start();
    run->RunFor(seconds(15));  // baselines (10 samples) and settled policy routing
    run->Push(MakeRuleMessage(RuleOf(0), true));
    std::erase_if(host_.netlink.rules, [](const RuleMessage& m) { return m.rule == RuleOf(0); });
    run->Push(MakeLink(11, Netdev(1), false, 2));
    run->Push(MakeAddress(11, Address(1), true));
    std::erase_if(host_.netlink.addresses,
                  [](const AddressMessage& m) { return m.address == MakeIp(Address(1)); });
    run->RunFor(seconds(1));
    run->Push(MakeLink(11, Netdev(1), true, 3));
    host_.rates[2] = 0;
    run->RunFor(seconds(8));  // grace 3 s, settle 5 s, collapse after 3 s
    EXPECT_EQ(run->Sample(kIpMissing), 1);
    EXPECT_EQ(run->Sample(kRulesMissing), 1);
    EXPECT_EQ(run->Sample(kRail2Collapsed), 1);
    for (auto [check, subject] : kIncidents) {
      const TimedFinding* f = run->Finding(check, subject);
      EXPECT_NE(f, nullptr) << check;
      if (f) since_[check] = f->since_unix_seconds;
    }
    return run;
  }

  static constexpr std::pair<const char*, const char*> kIncidents[] = {
      {"ip_missing_after_flap", "rnic1"},
      {"policy_routing_missing", "rnic0"},
      {"traffic_collapsed", "mlx5_2/1"}};

  FakeClock clock_;
  FakeFileSystem fs_;
  Host host_;
  std::map<std::string, double> since_;
};

TEST_F(RestartStateTest, OpenIncidentsStayOpenWithTheirOriginalSinceAfterARestart) {
  OpenThreeIncidents().reset();  // SIGTERM: the components flush, the file stays
  clock_.Advance(seconds(5));
  DaemonRun run(clock_, host_, fs_);
  run.Start();  // the first poll: what a scrape right after the restart sees
  EXPECT_EQ(run.Sample(kIpMissing), 1);
  EXPECT_EQ(run.Sample(kRulesMissing), 1);
  EXPECT_EQ(run.Sample(kRail2Collapsed), 1) << "never idle while being checked";
  EXPECT_EQ(run.Sample(Restored("traffic_collapsed", "checking")), 1);
  EXPECT_EQ(run.Sample(Restored("ip_missing_after_flap", "confirmed")), 1);
  EXPECT_EQ(run.Sample(Restored("policy_routing_missing", "confirmed")), 1);
  for (auto [check, subject] : kIncidents) {
    const TimedFinding* f = run.Finding(check, subject);
    ASSERT_NE(f, nullptr) << check;
    EXPECT_NEAR(f->since_unix_seconds, since_[check], 1e-3) << check;
  }
  run.RunFor(seconds(3));  // the rail is judged on measured rates: still silent, siblings active
  EXPECT_EQ(run.Sample(kRail2Collapsed), 1);
  EXPECT_EQ(run.Sample(Restored("traffic_collapsed", "checking")), 0);
  EXPECT_EQ(run.Sample(Restored("traffic_collapsed", "confirmed")), 1);
  ASSERT_NE(run.Finding("traffic_collapsed", "mlx5_2/1"), nullptr);
  EXPECT_NEAR(run.Finding("traffic_collapsed", "mlx5_2/1")->since_unix_seconds,
              since_["traffic_collapsed"], 1e-3);
}

TEST_F(RestartStateTest, WhatHealedWhileTheDaemonWasDownResolvesWithAnEvent) {
  OpenThreeIncidents().reset();
  host_.netlink.rules.push_back(MakeRuleMessage(RuleOf(0)));
  host_.netlink.addresses.push_back(MakeAddress(11, Address(1)));
  host_.rates[2] = kBusyRailRate;
  clock_.Advance(seconds(5));
  DaemonRun run(clock_, host_, fs_);
  run.Start();
  EXPECT_EQ(run.Sample(kIpMissing), 0);
  EXPECT_EQ(run.Sample(kRulesMissing), 0);
  EXPECT_TRUE(run.HasEventWith("rnic1: 10.0.1.2/24 is back")) << testing::PrintToString(run.events);
  EXPECT_TRUE(run.HasEventWith("rnic0: policy rule 'from 10.0.0.2/32 lookup 100"))
      << testing::PrintToString(run.events);
  run.RunFor(seconds(2));
  EXPECT_EQ(run.Sample(kRail2Collapsed), 0) << "a rail carrying traffic is not collapsed";
  EXPECT_TRUE(run.HasEventWith("mlx5_2/1 traffic collapsed -> normal (restored at start"))
      << testing::PrintToString(run.events);
  EXPECT_EQ(run.Sample(Restored("traffic_collapsed", "healed")), 1);
  EXPECT_EQ(run.Sample(Restored("ip_missing_after_flap", "healed")), 1);
  EXPECT_EQ(run.Sample(Restored("policy_routing_missing", "healed")), 1);
  EXPECT_EQ(run.Finding("traffic_collapsed", "mlx5_2/1"), nullptr);
}

TEST_F(RestartStateTest, ANewBootStartsFresh) {
  OpenThreeIncidents().reset();
  fs_.AddFile(kBootIdPath, "boot-b\n");
  DaemonRun run(clock_, host_, fs_);
  run.Start();
  run.RunFor(seconds(3));
  EXPECT_EQ(run.Sample(kIpMissing), 0);
  EXPECT_EQ(run.Sample(kRulesMissing), 0);
  EXPECT_EQ(run.Sample(kRail2Collapsed), 0);
  EXPECT_EQ(run.Sample(Restored("traffic_collapsed", "checking")), 0);
}

TEST_F(RestartStateTest, ARailStateOlderThanTheTrustBoundStartsFreshButAddressesAndRulesDoNot) {
  OpenThreeIncidents().reset();
  clock_.Advance(minutes(11));  // longer than kRailRestoreTrust (10 min)
  RestartLogCapture log;
  DaemonRun run(clock_, host_, fs_);
  run.Start();
  EXPECT_EQ(run.Sample(kRail2Collapsed), 0);
  EXPECT_EQ(run.Sample(kIpMissing), 1);
  EXPECT_EQ(run.Sample(kRulesMissing), 1);
  EXPECT_NE(log.text().find("the traffic state of 3 rails starts afresh"), std::string::npos)
      << log.text();
}

TEST_F(RestartStateTest, EntriesOfNetdevsAndPortsThatAreGoneAreDroppedWithAnEvent) {
  OpenThreeIncidents().reset();
  host_.RemoveRail(2);
  host_.RemoveRail(1);
  DaemonRun run(clock_, host_, fs_);
  run.Start();
  EXPECT_TRUE(run.HasEventWith("rnic1: not an RNIC netdev now"))
      << testing::PrintToString(run.events);
  EXPECT_TRUE(run.HasEventWith("mlx5_2/1 traffic collapsed (restored at start) dropped"))
      << testing::PrintToString(run.events);
  EXPECT_EQ(run.Sample(Restored("ip_missing_after_flap", "dropped")), 1);
  EXPECT_EQ(run.Sample(Restored("traffic_collapsed", "dropped")), 1);
  EXPECT_EQ(run.Sample(kRulesMissing), 1) << "rnic0 is still there and still lacks its rule";
}

TEST_F(RestartStateTest, BadStateFilesAreALogLineAndAFreshStartNeverACrash) {
  OpenThreeIncidents().reset();
  const std::string good = *fs_.ReadFile(kStatePath, 1 << 20);
  std::string newer = good;
  newer.replace(newer.find("\"schema_version\": 3"), 19, "\"schema_version\": 4");
  std::string broken_incidents = good;
  broken_incidents.replace(broken_incidents.find("\"state\": \"collapsed\""), 20,
                           "\"state\": \"exploded\"");
  const std::pair<const char*, std::string> cases[] = {
      {"truncated", good.substr(0, good.size() / 2)},
      {"newer schema", newer},
      {"malformed incidents", broken_incidents},
  };
  for (const auto& [what, text] : cases) {
    SCOPED_TRACE(what);
    fs_.AddFile(kStatePath, text);
    RestartLogCapture log;
    DaemonRun run(clock_, host_, fs_);
    run.Start();
    EXPECT_EQ(run.Sample(kRail2Collapsed), 0);
    EXPECT_EQ(run.Sample(kIpMissing), 0);
    EXPECT_NE(log.text().find("warning"), std::string::npos) << log.text();
  }
}

TEST_F(RestartStateTest, TheFileIsWrittenOnChangeNotOnEveryPoll) {
  std::unique_ptr<DaemonRun> run = OpenThreeIncidents();
  const int before = run->writes();
  run->RunFor(seconds(60));  // 60 polls with steady rates and the same open incidents
  EXPECT_LE(run->writes() - before, 2);
}

// Each rail's far end: the switch of rnic0 maps RoCE v2 to priority 4 without PFC on it (a
// critical finding), rnic1's switch is fine.
class FarEndRestartTest : public RestartStateTest {
 protected:
  static LldpFrameBuilder Lossy() { return LldpFrameBuilder::Leaf(1, 1).Pfc(0x08).RocePriority(4); }
  static LldpFrameBuilder Lossless() {
    return LldpFrameBuilder::Leaf(2, 1).Pfc(0x08).RocePriority(3);
  }
  // A first run that learns both far ends and is stopped; returns the finding's first-seen time.
  double FirstRun() {
    DaemonRun run(clock_, host_, fs_, {&lldp_, false});
    run.Start();
    lldp_.wire(Netdev(0)).queued.push_back(Lossy().Build());
    lldp_.wire(Netdev(1)).queued.push_back(Lossless().Build());
    run.RunFor(seconds(3));
    const TimedFinding* f = run.Finding("switch_pfc_missing_roce_priority", Netdev(0));
    EXPECT_NE(f, nullptr);
    EXPECT_NE(run.Sample(kNeighbor0), std::nullopt);
    return f != nullptr ? f->since_unix_seconds : 0;
  }

  static constexpr const char* kNeighbor0 = "rocewatch_rail_neighbor_age_seconds{netdev=\"rnic0\"}";
  FakeLldpNetwork lldp_;
};

TEST_F(FarEndRestartTest, AFarEndWithinItsTtlIsJudgedAtOnceWithItsOriginalSince) {
  const double since = FirstRun();
  clock_.Advance(seconds(20));  // a rollout; the switch's TTL is 120 s
  DaemonRun run(clock_, host_, fs_, {&lldp_, false});
  run.Start();  // no frame yet: switches repeat theirs every 30 s
  const TimedFinding* f = run.Finding("switch_pfc_missing_roce_priority", Netdev(0));
  ASSERT_NE(f, nullptr) << "the critical finding did not survive the restart";
  EXPECT_NEAR(f->since_unix_seconds, since, 1e-3);
  EXPECT_TRUE(run.HasEventWith("rnic0: LLDP neighbor leaf-01 port swp1"))
      << testing::PrintToString(run.events);
  EXPECT_TRUE(run.HasEventWith("restored from the state file (last frame 2"))
      << testing::PrintToString(run.events);
  EXPECT_GE(run.Sample(kNeighbor0).value_or(0), 20) << "the age counts from the last frame";
  // The switch repeats the same frame: nothing changed, nothing reported.
  const size_t events = run.events.size();
  lldp_.wire(Netdev(0)).queued.push_back(Lossy().Build());
  run.RunFor(seconds(2));
  EXPECT_EQ(run.events.size(), events) << testing::PrintToString(run.events);
  EXPECT_LT(run.Sample(kNeighbor0).value_or(99), 3);
}

TEST_F(FarEndRestartTest, ARailRecabledWhileTheDaemonWasDownIsReportedChanged) {
  FirstRun();
  clock_.Advance(minutes(5));  // longer than the TTL: the old neighbor is not current
  DaemonRun run(clock_, host_, fs_, {&lldp_, false});
  run.Start();
  EXPECT_EQ(run.Sample(kNeighbor0), std::nullopt);
  EXPECT_EQ(run.Finding("switch_pfc_missing_roce_priority", Netdev(0)), nullptr);
  lldp_.wire(Netdev(0)).queued.push_back(LldpFrameBuilder::Leaf(9, 7).Build());
  run.RunFor(seconds(2));
  EXPECT_TRUE(
      run.HasEventWith("rnic0: LLDP neighbor changed from leaf-01 port swp1 to leaf-09 "
                       "port swp7"))
      << testing::PrintToString(run.events);
}

TEST_F(FarEndRestartTest, FarEndsOfRailsThatAreGoneAreDroppedAndBadFramesIgnored) {
  FirstRun();
  host_.RemoveRail(1);
  // rnic0's frame corrupted in the file: valid hex, not a frame.
  std::string text = *fs_.ReadFile(kStatePath, 1 << 20);
  const std::string hex = "\"frame\": \"";
  const size_t at = text.find(hex);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at + hex.size(), text.find('"', at + hex.size()) - at - hex.size(), "00000000");
  fs_.AddFile(kStatePath, text);
  RestartLogCapture log;
  DaemonRun run(clock_, host_, fs_, {&lldp_, false});
  run.Start();
  EXPECT_TRUE(
      run.HasEventWith("rnic1: LLDP neighbor leaf-02 port swp1 from before the restart "
                       "dropped"))
      << testing::PrintToString(run.events);
  EXPECT_NE(log.text().find("the far end kept for rnic0 does not parse"), std::string::npos)
      << log.text();
  EXPECT_EQ(run.Sample(kNeighbor0), std::nullopt);
}

// Link quality across a restart: rnic0's recorded counters lose FEC blocks (failing), then the
// daemon restarts while the link is still bad.
class LinkVerdictRestartTest : public RestartStateTest {
 protected:
  LinkVerdictRestartTest() { fs_.AddFile("/sys/class/net/rnic0/speed", "100000\n"); }
  // The recordings of rnic0 with `uncorrectable` FEC blocks lost so far.
  void Record(uint64_t uncorrectable) {
    DriverStatistics s;
    s.counters = {{"rx_corrected_bits_phy", 1000}, {"rx_symbol_err_phy", 0}};
    fs_.AddFile("/rocewatch/ethtool/rnic0/statistics", FormatDriverStatisticsText(s));
    FecReading fec;
    fec.corrected_blocks = 500;
    fec.uncorrectable_blocks = uncorrectable;
    fs_.AddFile("/rocewatch/ethtool/rnic0/fec", FormatFecRecording(fec));
    fs_.AddFile("/rocewatch/ethtool/rnic0/link_state", "link: yes\n");
  }
  // A first run in which rnic0 loses 500 blocks every 10 s (failing), stopped while it still does.
  // Returns the finding's first-seen time.
  double FirstRunFailing() {
    DaemonRun run(clock_, host_, fs_, {nullptr, true});
    Record(lost_);
    run.Start();
    for (int i = 0; i < 3; ++i) {
      Record(lost_ += 500);
      run.RunFor(seconds(10));
    }
    EXPECT_EQ(run.Sample(kFailing), 1);
    const TimedFinding* f = run.Finding("link_quality_failing", "rnic0");
    EXPECT_NE(f, nullptr);
    return f != nullptr ? f->since_unix_seconds : 0;
  }

  uint64_t lost_ = 0;
  static constexpr const char* kFailing =
      "rocewatch_link_quality_state{netdev=\"rnic0\",state=\"failing\"}";
};

TEST_F(LinkVerdictRestartTest, AFailingLinkStaysFailingWithItsSinceAcrossARestart) {
  const double since = FirstRunFailing();
  clock_.Advance(seconds(5));
  DaemonRun run(clock_, host_, fs_, {nullptr, true});
  run.Start();  // one sample: the live counters cannot judge yet
  EXPECT_EQ(run.Sample(kFailing), 1) << "never ok while being checked";
  const TimedFinding* f = run.Finding("link_quality_failing", "rnic0");
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(f->since_unix_seconds, since, 1e-3);
  EXPECT_NE(f->finding.message.find("judged before the restart"), std::string::npos)
      << f->finding.message;
  Record(lost_ += 500);
  run.RunFor(seconds(10));  // still losing blocks: failing on live counters
  EXPECT_EQ(run.Sample(kFailing), 1);
  ASSERT_NE(run.Finding("link_quality_failing", "rnic0"), nullptr);
  EXPECT_EQ(
      run.Finding("link_quality_failing", "rnic0")->finding.message.find("before the restart"),
      std::string::npos);
}

TEST_F(LinkVerdictRestartTest, ALinkThatHealedWhileDownIsOkOnceTheWindowIsFull) {
  FirstRunFailing();
  DaemonRun run(clock_, host_, fs_, {nullptr, true});
  run.Start();
  EXPECT_EQ(run.Sample(kFailing), 1);
  run.RunFor(seconds(50));
  EXPECT_EQ(run.Sample(kFailing), 1) << "less than a window of live counters";
  run.RunFor(seconds(11));
  EXPECT_EQ(run.Sample(kFailing), 0);
  EXPECT_TRUE(run.HasEventWith("rnic0 link quality failing -> ok"))
      << testing::PrintToString(run.events);
  EXPECT_TRUE(run.HasEventWith("(restored at start, judged on live counters)"));
}

}  // namespace
}  // namespace rocewatch
