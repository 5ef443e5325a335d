#pragma once
// `rocewatch run`: the daemon. Watches, detects and serves metrics until SIGTERM/SIGINT.

#include "app/options.h"

namespace rocewatch {

// Returns the process exit status: 0 after a clean stop, 1 if it could not start.
int RunDaemon(const RunOptions& options);

}  // namespace rocewatch
