#pragma once
// A real netlink listener on a veth pair in a network namespace of the test's own:
// rnic0 (10.77.0.1/24, the RNIC) <-> peer0 (the "switch"). Downing peer0 drops rnic0's carrier
// without touching rnic0 itself, as a real link flap does. Skips without root or namespaces.

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <string>

#include "core/event_loop.h"
#include "netdev_health/netlink_listener.h"
#include "netlink/libnl_rtnetlink_source.h"
#include "support/net_namespace.h"

namespace rocewatch {

class NetlinkNetnsTest : public ::testing::Test {
 protected:
  static constexpr const char* kRnic = "rnic0";
  static constexpr const char* kPeer = "peer0";
  static constexpr const char* kAddress = "10.77.0.1/24";

  // Detector timings shortened so that each scenario runs in a few seconds.
  static NetdevHealthConfig FastConfig() {
    NetdevHealthConfig config;
    config.ip_loss.transition_window = std::chrono::seconds(2);
    config.ip_loss.grace = std::chrono::seconds(1);
    config.policy.settle = std::chrono::milliseconds(500);
    return config;
  }

  void SetUp() override {
    auto ns = NetNamespace::Create("nl");
    if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
    ns_ = std::move(*ns);
    ASSERT_TRUE(ns_->AddVethPair(kRnic, kPeer).ok());
    ASSERT_TRUE(ns_->Ip(std::string("addr add ") + kAddress + " dev " + kRnic).ok());
  }

  // Opens the source inside the namespace and starts the listener on the loop.
  // `rnic_netdevs`: the RNICs known when it starts (the daemon learns them from its first
  // inventory, after the listener's first dump).
  void StartListener(int receive_buffer_bytes = 4 << 20,
                     std::set<std::string> rnic_netdevs = {kRnic}) {
    source_ = std::make_unique<LibnlRtnetlinkSource>(
        clock_, LibnlRtnetlinkSource::Options{.receive_buffer_bytes = receive_buffer_bytes});
    Status opened;
    ASSERT_TRUE(ns_->RunInside([&] { opened = source_->Open(); }).ok());
    ASSERT_TRUE(opened.ok()) << opened.ToString();
    listener_ =
        std::make_unique<NetlinkListener>(*source_, clock_, std::move(rnic_netdevs), FastConfig());
    Status started = listener_->Start(loop_);
    ASSERT_TRUE(started.ok()) << started.ToString();
  }

  void TearDown() override {
    if (listener_) listener_->Stop();
    listener_.reset();
    source_.reset();
    ns_.reset();
  }

  // Runs the loop until `done` holds or `timeout` passes; returns whether it held.
  bool PumpUntil(const std::function<bool()>& done, Duration timeout = std::chrono::seconds(5)) {
    MonoTime deadline = clock_.Now() + timeout;
    while (!done()) {
      if (clock_.Now() >= deadline) return false;
      loop_.RunOnce(std::chrono::milliseconds(20));
    }
    return true;
  }
  void PumpFor(Duration d) {
    MonoTime end = clock_.Now() + d;
    while (clock_.Now() < end) loop_.RunOnce(std::chrono::milliseconds(20));
  }

  void Ip(const std::string& args) {
    Status s = ns_->Ip(args);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  std::optional<NetdevState> Rnic() const { return listener_->tracker().Find(kRnic); }
  bool Carrier() const { return Rnic() && Rnic()->carrier; }
  bool HasAddress(const std::string& address) const {
    std::optional<NetdevState> rnic = Rnic();
    if (!rnic) return false;
    for (const IpAddress& a : rnic->addresses)
      if (a.address == address) return true;
    return false;
  }
  const LinkFlapDetector::NetdevFlaps& Flaps() const {
    return *listener_->health().flaps().Find(kRnic);
  }
  const IpLossDetector::NetdevIps& Ips() const {
    return *listener_->health().ip_loss().Find(kRnic);
  }

  SystemClock clock_;
  EventLoop loop_{clock_};
  std::unique_ptr<NetNamespace> ns_;
  std::unique_ptr<LibnlRtnetlinkSource> source_;
  std::unique_ptr<NetlinkListener> listener_;
};

}  // namespace rocewatch
