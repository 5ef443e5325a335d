// The LLDP receive socket for real: a veth pair in a namespace of the test's own, "rail0" the
// host's end and "swp0" the switch's, with Debian's lldpd sending as the switch, or a raw sender
// of the test's own sending malformed, foreign and flooding frames. Needs root (skips without)
// and lldpd for the cases that use it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "core/event_loop.h"
#include "fabric/lldp_neighbor_table.h"
#include "lldp/packet_lldp_socket.h"
#include "support/lldp_frames.h"
#include "support/lldpd_switch.h"
#include "support/net_namespace.h"
#include "support/raw_frame_sender.h"
#include "support/sanitizer.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using std::chrono::steady_clock;

class LldpVethTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root (network namespaces, AF_PACKET)";
    StatusOr<std::unique_ptr<NetNamespace>> ns = NetNamespace::Create("lldp");
    if (!ns.ok()) GTEST_SKIP() << ns.status().ToString();
    ns_ = std::move(ns).value();
    ASSERT_TRUE(ns_->AddVethPair("rail0", "swp0").ok());
    ASSERT_TRUE(ns_->RunInside([&] {
                     StatusOr<std::unique_ptr<LldpSocket>> s = PacketLldpSocket::Open("rail0");
                     ASSERT_TRUE(s.ok()) << s.status().ToString();
                     socket_ = std::move(s).value();
                     StatusOr<std::unique_ptr<RawFrameSender>> w = RawFrameSender::Open("swp0");
                     ASSERT_TRUE(w.ok()) << w.status().ToString();
                     wire_ = std::move(w).value();
                   })
                    .ok());
    ASSERT_NE(socket_, nullptr);
  }

  // Reads what is queued into the table.
  void Drain() {
    for (;;) {
      StatusOr<LldpReceived> r = socket_->Read(64);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      for (const auto& frame : r->frames) table_.Observe("rail0", frame, steady_clock::now());
      table_.CountKernelDrops("rail0", r->kernel_drops);
      if (!r->more_queued) return;
    }
  }
  // Drains until `done` holds or `bound` passes.
  bool DrainUntil(const std::function<bool()>& done, std::chrono::milliseconds bound) {
    auto deadline = steady_clock::now() + bound;
    while (steady_clock::now() < deadline) {
      Drain();
      if (done()) return true;
      std::this_thread::sleep_for(milliseconds(20));
    }
    return false;
  }
  uint64_t Frames() const {
    auto it = table_.counters().find("rail0");
    return it == table_.counters().end() ? 0 : it->second.frames;
  }

  std::unique_ptr<NetNamespace> ns_;
  std::unique_ptr<LldpSocket> socket_;
  std::unique_ptr<RawFrameSender> wire_;
  LldpNeighborTable table_;
};

TEST_F(LldpVethTest, LldpdOnThePeerIsReadAsTheRailsNeighbor) {
  if (kUnderThreadSanitizer) GTEST_SKIP() << "lldpd is forked, which TSan's runtime can hang";
  StatusOr<std::unique_ptr<LldpdSwitch>> lldpd =
      LldpdSwitch::Start(ns_->name(), "swp0", {.hostname = "leaf-07", .pfc_enabled = 0x08});
  if (!lldpd.ok()) GTEST_SKIP() << lldpd.status().ToString();
  auto named_leaf = [&] {
    const LldpNeighbor* n = table_.neighbor("rail0");
    return n != nullptr && n->frame.system_name == "leaf-07" && n->frame.pfc &&
           n->frame.port_id.value == "swp0";
  };
  ASSERT_TRUE(DrainUntil(named_leaf, seconds(15))) << "frames: " << Frames();
  const LldpFrame& f = table_.neighbor("rail0")->frame;
  EXPECT_EQ(f.port_id.subtype, kPortInterfaceName);
  EXPECT_TRUE(f.IsSwitch());
  EXPECT_EQ(f.pfc->enabled, 0x08);
  EXPECT_GT(f.ttl_seconds, 0);
  EXPECT_EQ(table_.counters().at("rail0").invalid, 0u);
}

TEST_F(LldpVethTest, RecablingToAnotherSwitchReplacesTheNeighbor) {
  if (kUnderThreadSanitizer) GTEST_SKIP() << "lldpd is forked, which TSan's runtime can hang";
  {
    StatusOr<std::unique_ptr<LldpdSwitch>> leaf7 = LldpdSwitch::Start(
        ns_->name(), "swp0", {.hostname = "leaf-07", .pfc_enabled = std::nullopt});
    if (!leaf7.ok()) GTEST_SKIP() << leaf7.status().ToString();
    ASSERT_TRUE(DrainUntil(
        [&] {
          const LldpNeighbor* n = table_.neighbor("rail0");
          return n != nullptr && n->frame.system_name == "leaf-07";
        },
        seconds(15)));
  }  // leaf-07 stops: its shutdown frame (TTL 0) removes it
  ASSERT_TRUE(DrainUntil([&] { return table_.neighbor("rail0") == nullptr; }, seconds(5)));
  ASSERT_TRUE(ns_->Ip("link set swp0 address 02:00:00:00:00:08").ok());  // another chassis
  StatusOr<std::unique_ptr<LldpdSwitch>> leaf8 =
      LldpdSwitch::Start(ns_->name(), "swp0", {.hostname = "leaf-08", .pfc_enabled = std::nullopt});
  ASSERT_TRUE(leaf8.ok()) << leaf8.status().ToString();
  ASSERT_TRUE(DrainUntil(
      [&] {
        const LldpNeighbor* n = table_.neighbor("rail0");
        return n != nullptr && n->frame.system_name == "leaf-08";
      },
      seconds(15)));
  EXPECT_EQ(table_.neighbor("rail0")->frame.chassis_id.value, "02:00:00:00:00:08");
}

TEST_F(LldpVethTest, HostileFramesAreCountedInvalidAndOthersNeverArrive) {
  table_ = LldpNeighborTable({.frames_per_second = 1000, .burst = 1000});  // no cap in the way
  std::vector<uint8_t> valid = LldpFrameBuilder::Leaf(7, 3).Build();
  // Every truncation inside the mandatory TLVs (they end at byte 34).
  for (size_t cut = 15; cut < 34; ++cut)
    ASSERT_TRUE(wire_->Send(std::vector<uint8_t>(valid.begin(), valid.begin() + cut)).ok());
  std::vector<uint8_t> past_end = valid;
  past_end[14 + 9 + 1] = 0xff;  // the port ID TLV claims 255 bytes
  ASSERT_TRUE(wire_->Send(past_end).ok());
  std::vector<uint8_t> ipv4 = valid;
  ipv4[12] = 0x08;  // ethertype 0x08cc: the filter keeps it off the socket
  ASSERT_TRUE(wire_->Send(ipv4).ok());
  ASSERT_TRUE(wire_->Send(valid).ok());
  ASSERT_TRUE(DrainUntil([&] { return table_.neighbor("rail0") != nullptr; }, seconds(5)));
  std::this_thread::sleep_for(milliseconds(100));
  Drain();
  const LldpNetdevCounters& c = table_.counters().at("rail0");
  EXPECT_EQ(c.frames, 21u);  // 19 truncated, 1 past the end, 1 valid; not the foreign one
  EXPECT_EQ(c.invalid, 20u);
  EXPECT_EQ(table_.neighbor("rail0")->frame.port_id.value, "swp3");
}

TEST_F(LldpVethTest, FramesThisHostSendsAreNotRead) {
  std::unique_ptr<RawFrameSender> own;
  ASSERT_TRUE(ns_->RunInside([&] {
                   StatusOr<std::unique_ptr<RawFrameSender>> opened = RawFrameSender::Open("rail0");
                   if (opened.ok()) own = std::move(opened).value();
                 })
                  .ok());
  ASSERT_NE(own, nullptr);
  ASSERT_TRUE(own->Send(LldpFrameBuilder::Leaf(1, 1).Build()).ok());    // out of rail0
  ASSERT_TRUE(wire_->Send(LldpFrameBuilder::Leaf(7, 3).Build()).ok());  // into rail0
  ASSERT_TRUE(DrainUntil([&] { return table_.neighbor("rail0") != nullptr; }, seconds(5)));
  std::this_thread::sleep_for(milliseconds(100));
  Drain();
  EXPECT_EQ(Frames(), 1u);
  EXPECT_EQ(table_.neighbor("rail0")->frame.system_name, "leaf-07");
}

// The CPU time this thread has used.
Duration FloodThreadCpuTime() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

// 10,000 frames a second for two seconds on one rail, read on an event loop as the daemon reads
// (at most 64 frames per wakeup) beside a 10 ms timer. Starving the loop is judged in the
// thread's CPU time, which the machine's load does not change: no wakeup of the flood holds the
// thread for 10 ms (a timer due meanwhile waits at most that long for the loop), and the whole
// flood costs the loop a small part of one core. The timer's lateness in wall time is printed,
// not judged: on a loaded machine the scheduler alone delays it past any bound (124 ms seen with
// three compiles beside the test, while the loop used 0.2 s of CPU in 3 s).
TEST_F(LldpVethTest, AFloodIsCountedAndDroppedWithoutStarvingTheLoop) {
  SystemClock clock;
  EventLoop loop(clock);
  Duration longest_read{};
  loop.WatchFd(socket_->fd(), [&](short) {
    Duration began = FloodThreadCpuTime();
    StatusOr<LldpReceived> r = socket_->Read(64);
    if (r.ok()) {
      for (const auto& frame : r->frames) table_.Observe("rail0", frame, clock.Now());
      table_.CountKernelDrops("rail0", r->kernel_drops);
    }
    longest_read = std::max(longest_read, FloodThreadCpuTime() - began);
  });
  Duration worst_lateness{};
  int ticks = 0;
  std::function<void()> tick;
  MonoTime due = clock.Now() + milliseconds(10);
  tick = [&] {
    worst_lateness = std::max(worst_lateness, clock.Now() - due);
    ++ticks;
    due = clock.Now() + milliseconds(10);
    loop.ScheduleAt(due, tick);
  };
  loop.ScheduleAt(due, tick);
  std::atomic<int> sent{0};
  std::thread flood([&] {
    std::vector<uint8_t> frame = LldpFrameBuilder::Leaf(7, 3).Build();
    auto start = steady_clock::now();
    for (int i = 0; i < 20000; ++i) {
      std::this_thread::sleep_until(start + std::chrono::microseconds(100) * i);
      if (wire_->Send(frame).ok()) ++sent;
    }
  });
  Duration cpu0 = FloodThreadCpuTime();
  auto until = steady_clock::now() + seconds(3);
  while (steady_clock::now() < until) loop.RunOnce(milliseconds(50));
  Duration loop_cpu = FloodThreadCpuTime() - cpu0;
  flood.join();
  for (int i = 0; i < 10; ++i) loop.RunOnce(milliseconds(10));
  const LldpNetdevCounters& c = table_.counters().at("rail0");
  std::printf(
      "flood: sent %d, counted %llu (dropped %llu, kernel drops included), loop CPU %.3f s "
      "in 3 s, longest read %.2f ms of CPU, worst timer lateness %.1f ms over %d ticks\n",
      sent.load(), static_cast<unsigned long long>(c.frames),
      static_cast<unsigned long long>(c.dropped), ToSeconds(loop_cpu),
      ToSeconds(longest_read) * 1e3, ToSeconds(worst_lateness) * 1e3, ticks);
  EXPECT_GE(sent.load(), 19000);
  EXPECT_GE(c.frames, static_cast<uint64_t>(sent.load()) * 9 / 10);  // counted, read or dropped
  EXPECT_LE(c.frames - c.dropped, 60u);  // the cap: 20 burst + 10/s over ~3 s
  EXPECT_EQ(table_.neighbors().size(), 1u);
  EXPECT_EQ(table_.counters().size(), 1u);  // no series growth
  // A sanitizer multiplies the CPU of every read (TSan up to 15x): the product's figures are the
  // default build's, the sanitizer builds keep the bound on one read, ten times wider.
  EXPECT_LT(longest_read, milliseconds(kUnderSanitizer ? 100 : 10));
  if (!kUnderSanitizer) {
    EXPECT_LT(loop_cpu, milliseconds(1500));  // half a core over 3 s
  }
  EXPECT_GT(ticks, 0);  // the timer kept firing through the flood
}

}  // namespace
}  // namespace rocewatch
