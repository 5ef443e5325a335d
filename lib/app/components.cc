#include "app/components.h"

#include "app/consumer_component.h"
#include "app/ethtool_component.h"
#include "app/gid_drift_component.h"
#include "app/inventory_component.h"
#include "app/netlink_component.h"
#include "app/traffic_component.h"
#include "consumers/recorded_pod_resources_source.h"

namespace rocewatch {

std::vector<std::unique_ptr<MonitorComponent>> BuildComponents(const ComponentEnvironment& env) {
  std::vector<std::unique_ptr<MonitorComponent>> components;
  components.push_back(std::make_unique<InventoryComponent>());
  NetlinkComponent::Options netlink;
  netlink.receive_buffer_bytes = env.options.netlink_receive_buffer;
  netlink.health.ip_loss.grace = env.options.ip_missing_grace;
  // Link quality, PFC and optics; it also says why a link went down, for the flap event.
  auto ethtool =
      std::make_unique<EthtoolComponent>(env.options.ethtool, env.fs, env.options.common.paths);
  netlink.link_down_reason = [component = ethtool.get()](const std::string& netdev) {
    return component->LinkDownReason(netdev);
  };
  components.push_back(std::make_unique<NetlinkComponent>(netlink));
  // Consumers first: the drift and traffic components name them in what they report.
  auto consumers = std::make_shared<ConsumerBoard>();
  components.push_back(std::make_unique<ConsumerComponent>(
      env.procfs ? *env.procfs : env.fs, env.options.common.paths, env.options.consumers,
      PodResourcesSourceFor(env.fs, env.options.common.paths, env.options.consumers), consumers));
  std::unique_ptr<GidDriftComponent> drift = GidDriftComponent::ForDaemon(
      env.fs, env.options.common.paths.procfs_root, env.options.state_file, env.verbs_devices,
      GidDriftOptions{env.options.expected_gid_index});
  drift->UseConsumers(consumers);
  components.push_back(std::move(drift));
  auto traffic = std::make_unique<TrafficComponent>(env.options.traffic, env.options.interval / 2);
  traffic->UseConsumers(consumers);
  components.push_back(std::move(traffic));
  components.push_back(std::move(ethtool));
  return components;
}

}  // namespace rocewatch
