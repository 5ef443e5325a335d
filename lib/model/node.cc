#include "model/node.h"

#include <algorithm>
#include <cstring>

namespace rocewatch {

bool Port::GidSlotUnreadable(uint32_t index) const {
  return gid_table_unlistable ||
         std::binary_search(unreadable_gid_slots.begin(), unreadable_gid_slots.end(), index);
}

bool Port::AttributeUnreadable(std::string_view name) const {
  return std::find(unreadable_attributes.begin(), unreadable_attributes.end(), name) !=
         unreadable_attributes.end();
}

bool Device::AttributeUnreadable(std::string_view name) const {
  return std::find(unreadable_attributes.begin(), unreadable_attributes.end(), name) !=
         unreadable_attributes.end();
}

std::string ErrnoText(int sys_errno) {
  if (sys_errno == 0) return "malformed content";
  const char* name = strerrorname_np(sys_errno);
  return std::string(std::strerror(sys_errno)) + " (" +
         (name != nullptr ? name : "errno " + std::to_string(sys_errno)) + ")";
}

std::string PrimaryNetdev(const Port& port) {
  if (!port.own_netdevs.empty()) return port.own_netdevs.front();
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
