#pragma once
// The `rocewatch run` flags of the ethtool component (docs/cli.md, docs/detection.md): declared on
// a CLI11 command, then turned into validated EthtoolOptions. Each is also read from its
// environment variable ROCEWATCH_<NAME> (e.g. ROCEWATCH_OPTICS_INTERVAL).

#include <string>

#include "core/status.h"
#include "link_quality/ethtool_options.h"

namespace CLI {
class App;
}

namespace rocewatch {

struct EthtoolFlagValues {
  EthtoolFlagValues();
  std::string interval;         // --ethtool-interval; 0 turns ethtool reads off
  std::string optics_interval;  // --optics-interval; 0 turns module reads off
  std::string link_quality_window;
  double ber_degraded;
  double ber_failing;
  std::string pfc_window;
  double pfc_storm_fraction;
};

void AddEthtoolFlags(CLI::App& command, EthtoolFlagValues& values);
// InvalidArgument naming the flag for a malformed duration or inconsistent values.
StatusOr<EthtoolOptions> EthtoolOptionsFromFlags(const EthtoolFlagValues& values);

}  // namespace rocewatch
