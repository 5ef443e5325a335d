#pragma once
// The traffic state of one RDMA port (rail), as exported in rocewatch_traffic_state{state}.

#include <array>

namespace rocewatch {

enum class TrafficState {
  kIdle,       // no traffic, nothing wrong: never active, or paused together with its siblings
  kNormal,     // carries traffic in line with its baseline and its siblings
  kDegraded,   // well below its baseline and its siblings, or fluctuating abnormally
  kCollapsed,  // (near) zero while its siblings carry traffic, or the whole node stopped too long
  kLinkDown,   // the port's netdev has no carrier
};

inline constexpr std::array<TrafficState, 5> kAllTrafficStates = {
    TrafficState::kIdle, TrafficState::kNormal, TrafficState::kDegraded, TrafficState::kCollapsed,
    TrafficState::kLinkDown};

// "idle", "normal", "degraded", "collapsed", "link_down" (the contract's label values).
const char* TrafficStateLabel(TrafficState state);

}  // namespace rocewatch
