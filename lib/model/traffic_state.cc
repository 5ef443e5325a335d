#include "model/traffic_state.h"

namespace rocewatch {

const char* TrafficStateLabel(TrafficState state) {
  switch (state) {
    case TrafficState::kIdle:
      return "idle";
    case TrafficState::kNormal:
      return "normal";
    case TrafficState::kDegraded:
      return "degraded";
    case TrafficState::kCollapsed:
      return "collapsed";
    case TrafficState::kLinkDown:
      return "link_down";
  }
  return "idle";
}

}  // namespace rocewatch
