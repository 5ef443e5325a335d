#pragma once
// `rocewatch diagnose --watch`: the daemon's own components run on this run's event loop for the
// watch period, over the same snapshot source as the one-shot path. What they report as it happens
// (events, and each periodic poll's per-rail rates) is printed live on `err`; what they hold at the
// end (the latest snapshot, their findings, link quality over the watch, consumers) fills the
// report, which the shared report step (diagnose_command.cc) then completes.

#include <optional>
#include <ostream>

#include "daemon/host_env.h"
#include "daemon/options.h"
#include "daemon/snapshot_source.h"
#include "diagnose/daemon_view.h"
#include "diagnose/diagnose_report.h"
#include "verbs/verbs_device_set.h"

namespace rocewatch {

// REQUIRES: options.watch is set. `daemon` (may be null): a live daemon's answer seeds the traffic
// baselines, so the first rates agree with it. `verbs_devices` (may be null): the GID source's.
// Errors: the components could not start (one line).
Status WatchNode(const HostEnv& env, const DiagnoseOptions& options, SnapshotSource& source,
                 VerbsDeviceSet* verbs_devices, const DaemonView* daemon, DiagnoseReport& report,
                 std::ostream& err);

}  // namespace rocewatch
