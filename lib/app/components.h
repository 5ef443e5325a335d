#pragma once
// The daemon's component set, shared by `rocewatch run` and `rocewatch diagnose --watch`.
// A new feature adds its MonitorComponent here.

#include <memory>
#include <vector>

#include "app/monitor_component.h"
#include "app/options.h"
#include "os/file_system.h"

namespace rocewatch {

struct ComponentEnvironment {
  const RunOptions& options;
  const FileSystem& fs;
};

std::vector<std::unique_ptr<MonitorComponent>> BuildComponents(const ComponentEnvironment& env);

}  // namespace rocewatch
