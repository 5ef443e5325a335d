#pragma once
// The daemon's component set, shared by `rocewatch run` and `rocewatch diagnose --watch`.
// A new feature adds its MonitorComponent here.

#include <memory>
#include <vector>

#include "app/monitor_component.h"
#include "app/options.h"
#include "os/file_system.h"
#include "verbs/verbs_device_set.h"

namespace rocewatch {

struct ComponentEnvironment {
  const RunOptions& options;
  const FileSystem& fs;
  VerbsDeviceSet* verbs_devices = nullptr;  // set when GIDs are read through verbs
  // Reads of procfs files that may be larger than a page (maps, environ: seq_file-backed, they
  // read short before their end). Null: `fs`.
  const FileSystem* procfs = nullptr;
};

std::vector<std::unique_ptr<MonitorComponent>> BuildComponents(const ComponentEnvironment& env);

}  // namespace rocewatch
