#include "app/components.h"

#include "app/inventory_component.h"

namespace rocewatch {

std::vector<std::unique_ptr<MonitorComponent>> BuildComponents(const ComponentEnvironment& env) {
  (void)env;
  std::vector<std::unique_ptr<MonitorComponent>> components;
  components.push_back(std::make_unique<InventoryComponent>());
  return components;
}

}  // namespace rocewatch
