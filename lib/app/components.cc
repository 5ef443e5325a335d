#include "app/components.h"

#include "app/inventory_component.h"
#include "traffic/traffic_component.h"

namespace rocewatch {

std::vector<std::unique_ptr<MonitorComponent>> BuildComponents(const ComponentEnvironment& env) {
  std::vector<std::unique_ptr<MonitorComponent>> components;
  components.push_back(std::make_unique<InventoryComponent>());
  components.push_back(
      std::make_unique<TrafficComponent>(env.options.traffic, env.options.interval / 2));
  return components;
}

}  // namespace rocewatch
