#pragma once
// `rocewatch collect DIR` (docs/bundle.md): writes a support bundle of this host (or of the host
// under --host-root) into DIR. Exit status 0 when the bundle was written (items that could not be
// read are listed in DIR/rocewatch/bundle.json and on stderr), 3 when it could not be written.

#include <ostream>
#include <string>

#include "consumers/consumer_options.h"
#include "daemon/host_env.h"
#include "daemon/options.h"

namespace rocewatch {

struct CollectCommandOptions {
  CommonOptions common;
  std::string directory;
  bool optics = true;
  ConsumerOptions consumers;  // --kubelet-socket: whose pod-resources answer is recorded
};

int RunCollect(const HostEnv& env, const CollectCommandOptions& options, std::ostream& out,
               std::ostream& err);

}  // namespace rocewatch
