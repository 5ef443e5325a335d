#include "model/node.h"

namespace rocewatch {

std::string PrimaryNetdev(const Port& port) {
  return port.netdevs.empty() ? std::string() : port.netdevs.front();
}

const Device* NodeSnapshot::FindDevice(const std::string& name) const {
  for (const Device& d : devices)
    if (d.name == name) return &d;
  return nullptr;
}

const Port* NodeSnapshot::FindPort(const std::string& device, uint32_t port) const {
  const Device* d = FindDevice(device);
  if (d == nullptr) return nullptr;
  for (const Port& p : d->ports)
    if (p.number == port) return &p;
  return nullptr;
}

}  // namespace rocewatch
