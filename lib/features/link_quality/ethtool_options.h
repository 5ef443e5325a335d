#pragma once
// Settings of the ethtool component (docs/detection.md, "Link quality", "PFC storms", "Optics";
// the `rocewatch run --ethtool-*` / `--optics-interval` flags).

#include "core/clock.h"
#include "link_quality/link_quality_detector.h"
#include "link_quality/pfc_storm_detector.h"

namespace rocewatch {

struct EthtoolOptions {
  bool enabled = true;                                  // --ethtool-interval 0 turns it all off
  Duration interval = std::chrono::seconds(10);         // counters: driver statistics, FEC, pause
  Duration optics_interval = std::chrono::seconds(60);  // module pages; zero: never read
  LinkQualityOptions link_quality;
  PfcStormOptions pfc;
};

}  // namespace rocewatch
