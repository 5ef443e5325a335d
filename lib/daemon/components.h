#pragma once
// The daemon's component set, shared by `rocewatch run` and `rocewatch diagnose --watch`.
// A new feature adds its MonitorComponent here.

#include <memory>
#include <vector>

#include "component/monitor_component.h"
#include "daemon/host_env.h"
#include "daemon/options.h"
#include "fabric/lldp_component.h"
#include "job_awareness/consumer_component.h"
#include "link_quality/ethtool_component.h"
#include "os/file_system.h"
#include "traffic/traffic_component.h"
#include "verbs/verbs_device_set.h"

namespace rocewatch {

struct ComponentEnvironment {
  const RunOptions& options;
  // The kernel interfaces the components open (rtnetlink, ethtool, the kubelet).
  const HostEnv& host;
  // Polled attributes and the state file (HostEnv::attributes, or whole-file reads for a
  // one-shot command).
  const FileSystem& fs;
  // Reads of procfs files that may be larger than a page (maps, environ): HostEnv::files.
  const FileSystem& procfs;
  VerbsDeviceSet* verbs_devices = nullptr;  // set when GIDs are read through verbs
  // Where the ethtool component reports its stuck driver calls, and their deadline (null: its
  // own StuckCalls, unreported).
  std::shared_ptr<StuckCalls> stuck_calls{};
  Duration read_deadline{std::chrono::seconds(2)};
};

// The components in the order the Monitor runs them, and typed views of those whose state a
// command reports beyond metrics and findings (diagnose --watch). The views point into `all`:
// valid while the Monitor that takes them lives.
struct ComponentSet {
  std::vector<std::unique_ptr<MonitorComponent>> all;
  TrafficComponent* traffic = nullptr;
  const EthtoolComponent* ethtool = nullptr;
  const ConsumerComponent* consumers = nullptr;
  const LldpComponent* lldp = nullptr;
};

ComponentSet BuildComponents(const ComponentEnvironment& env);

}  // namespace rocewatch
