#pragma once
// `rocewatch collect DIR` (docs/bundle.md): writes a support bundle of this host (or of the host
// under --host-root) into DIR. Exit status 0 when the bundle was written (items that could not be
// read are listed in DIR/rocewatch/bundle.json and on stderr), 3 when it could not be written.

#include <optional>
#include <ostream>
#include <string>

#include "consumers/consumer_options.h"
#include "daemon/defaults.h"
#include "daemon/host_env.h"
#include "daemon/options.h"

namespace rocewatch {

struct CollectCommandOptions {
  CommonOptions common;
  std::string directory;
  bool optics = true;
  ConsumerOptions consumers;  // --kubelet-socket: whose pod-resources answer is recorded
  // --lldp-wait: how long to wait for each rail's LLDP frame (switches send every 30 s by
  // default); zero records none.
  Duration lldp_wait = std::chrono::seconds(31);
  // --daemon: the running daemon whose answer is recorded (as diagnose's --daemon); nullopt for
  // `none`. Each request is bounded by daemon_timeout.
  std::optional<HttpUrl> daemon;
  std::string daemon_text;  // as given, recorded and in messages
  Duration daemon_timeout = defaults::kDaemonTimeout;
};

int RunCollect(const HostEnv& env, const CollectCommandOptions& options, std::ostream& out,
               std::ostream& err);

}  // namespace rocewatch
