#pragma once
// The daemon's typed state, as served at GET /api/v1/state and read back by `rocewatch diagnose
// --daemon URL` and from a bundle (docs/contract.md, "GET /api/v1/state"): what a one-shot run
// cannot have, the windowed figures of the detectors.
//   {"schema": "rocewatch.state", "version": 1, "boot_id": "...", "generated_at": 1764577043.5,
//    "last_poll": 1764577043.1,
//    "ports": [{"device": "mlx5_0", "port": 1, "traffic_state": "collapsed",
//               "baseline_bytes_per_second": 1.2e10, "node_wide": false,
//               "transmit_bytes": 123, "receive_bytes": 456}],
//    "netdevs": [{"netdev": "eth0", "link_quality": "degraded", "pre_fec_ber": 1e-9,
//                 "pfc": [{"priority": 3, "direction": "rx", "paused_ratio": 0.4,
//                          "storm": true}],
//                 "optics_read_at": 1764577020.4}],
//    "optics_interval": 60}
// "optics_interval" is the seconds between two reads of one transceiver module (0: the daemon
// reads none; absent from daemons that predate it), "optics_read_at" the Unix time of the
// daemon's latest read (or failed attempt) of that netdev's module: a one-shot diagnose takes the
// daemon's optics findings for such a netdev instead of reading the module again
// (diagnose/daemon_view.h, DaemonOpticsOf). Optional figures are absent when unknown. Times are
// Unix seconds. Both sides use this file. Pure: values in, text or values out.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "model/traffic_state.h"

namespace rocewatch {

inline constexpr std::string_view kDaemonStateSchema = "rocewatch.state";
inline constexpr int kDaemonStateVersion = 1;

// The traffic detector's view of one port, with the port's byte counters of the last poll.
struct DaemonPortState {
  std::string device{};
  uint32_t port = 0;
  TrafficState traffic_state = TrafficState::kIdle;
  std::optional<double> baseline{};  // bytes per second, once learned
  bool node_wide = false;            // collapsed by the node-stop rule
  std::optional<uint64_t> transmit_bytes{}, receive_bytes{};
};

struct DaemonPfcState {
  int priority = 0;
  bool transmit = false;                    // direction "tx"; "rx" otherwise
  std::optional<double> paused_fraction{};  // over the window
  bool storm = false;
};

// The link-quality window verdict and PFC figures of one netdev.
struct DaemonNetdevState {
  std::string netdev{};
  std::string link_quality{};  // the state label: "ok" | "degraded" | "failing"
  std::optional<double> pre_fec_ber{};
  std::vector<DaemonPfcState> pfc{};
  std::optional<double> optics_read_at_unix{};  // the daemon's latest read of the module
};

struct DaemonState {
  std::string boot_id{};  // empty when unknown
  double generated_at_unix = 0;
  double last_poll_unix = 0;  // when the counters below were read; 0 before the first poll
  std::vector<DaemonPortState> ports{};
  std::vector<DaemonNetdevState> netdevs{};
  std::optional<double> optics_interval_seconds{};  // 0: reads no module; absent: unknown
};

nlohmann::ordered_json DaemonStateToJson(const DaemonState& state);

// The largest document ParseDaemonState reads, and the most entries of each list.
inline constexpr size_t kMaxDaemonStateBytes = 8 << 20;
inline constexpr size_t kMaxDaemonStateEntries = 16384;

// What diagnose reads back: untrusted. Unknown fields are ignored; a wrong schema or version, a
// missing or mistyped field, a document or list past its bound is Corrupt with a one-line reason.
// Never throws.
StatusOr<DaemonState> ParseDaemonState(std::string_view text);

}  // namespace rocewatch
