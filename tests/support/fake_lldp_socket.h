#pragma once
// LldpSocket fakes: frames queued by the test, read back in order; an opener that hands out one
// fake per netdev and keeps a handle on each, so the test feeds the socket the component opened.

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lldp/lldp_socket.h"

namespace rocewatch {

struct FakeLldpWire {
  std::deque<std::vector<uint8_t>> queued;
  uint64_t kernel_drops = 0;
  bool failed = false;  // Read fails (the netdev went away)
  int reads = 0;
};

class FakeLldpSocket final : public LldpSocket {
 public:
  explicit FakeLldpSocket(std::shared_ptr<FakeLldpWire> wire) : wire_(std::move(wire)) {}
  int fd() const override { return -1; }
  StatusOr<LldpReceived> Read(size_t max_frames) override {
    ++wire_->reads;
    if (wire_->failed) return Status::IoError("fake LLDP socket failed", 19);
    LldpReceived received;
    while (!wire_->queued.empty() && received.frames.size() < max_frames) {
      received.frames.push_back(std::move(wire_->queued.front()));
      wire_->queued.pop_front();
    }
    received.more_queued = !wire_->queued.empty();
    received.kernel_drops = wire_->kernel_drops;
    wire_->kernel_drops = 0;
    return received;
  }

 private:
  std::shared_ptr<FakeLldpWire> wire_;
};

// Opens a fake for every netdev but those in `refused` (PermissionDenied, as without CAP_NET_RAW).
class FakeLldpNetwork {
 public:
  LldpSocketOpener Opener() {
    return [this](const std::string& netdev) -> StatusOr<std::unique_ptr<LldpSocket>> {
      ++opens[netdev];
      if (refused.count(netdev)) return Status::PermissionDenied("fake: no CAP_NET_RAW");
      auto& wire = wires[netdev];
      if (!wire) wire = std::make_shared<FakeLldpWire>();
      return std::unique_ptr<LldpSocket>(new FakeLldpSocket(wire));
    };
  }
  FakeLldpWire& wire(const std::string& netdev) {
    auto& w = wires[netdev];
    if (!w) w = std::make_shared<FakeLldpWire>();
    return *w;
  }

  std::map<std::string, std::shared_ptr<FakeLldpWire>> wires;
  std::map<std::string, int> opens;
  std::set<std::string> refused;
};

}  // namespace rocewatch
