#pragma once
// The node model: what the sources observed about the RDMA devices of this host at one instant.
// Sources fill it; detectors, the exporter and the diagnose report read it. Plain values only.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "model/gid.h"

namespace rocewatch {

// Counters of one port. A counter whose read failed or whose content was not a number is absent
// from the maps; one whose read failed is also named in `unreadable`.
struct PortCounters {
  // counters/port_xmit_data and port_rcv_data, already multiplied by 4 (they count 4-octet units).
  std::optional<uint64_t> transmit_bytes;
  std::optional<uint64_t> receive_bytes;
  // counters/port_xmit_packets and port_rcv_packets.
  std::optional<uint64_t> transmit_packets;
  std::optional<uint64_t> receive_packets;
  // Every readable numeric file of counters/, raw values as the kernel prints them (data counters
  // in 4-octet units here), by file name.
  std::map<std::string, uint64_t> counters;
  // Every readable numeric file of hw_counters/ except settings (lifespan), by file name.
  std::map<std::string, uint64_t> hw_counters;
  // Counter files whose read failed at their last read ("counters/<name>", "hw_counters/<name>"),
  // sorted: their values are unknown (not zero, not absent from the NIC).
  std::vector<std::string> unreadable;

  bool operator==(const PortCounters&) const = default;
};

struct Port {
  uint32_t number = 0;               // 1-based
  std::string state;                 // "ACTIVE", "DOWN", ... (sysfs "4: ACTIVE" -> "ACTIVE")
  std::string phys_state;            // "LinkUp", "Disabled", ... (sysfs "5: LinkUp" -> "LinkUp")
  std::string link_layer;            // "Ethernet" (RoCE) or "InfiniBand"
  std::string rate;                  // "400 Gb/sec (4X NDR)"
  uint32_t gid_table_len = 0;        // number of slots (entries of gids/)
  std::vector<std::string> netdevs;  // the port's netdevs (device/net/ and GID ndevs), sorted
  // Its own netdevs only (device/net/, by dev_port), sorted; empty where whoever made the snapshot
  // did not tell them apart (a test's node): the first of `netdevs` then stands for them.
  std::vector<std::string> own_netdevs{};
  std::vector<GidEntry> gids;  // valid entries only, ascending index
  // GID slots whose content is unknown (their read failed; not empty: an empty slot reads as the
  // zero GID), ascending. A check that needs the whole table cannot run while this is not empty.
  std::vector<uint32_t> unreadable_gid_slots;
  // gids/ could not be listed: the whole table is unknown (gid_table_len is then 0).
  bool gid_table_unlistable = false;
  PortCounters counters;
  // Attributes whose last read failed ("link_layer", "phys_state", "rate", "state"), sorted:
  // unknown, not empty. state and phys_state are then ""; link_layer and rate keep the value last
  // read (a port's link layer and rate do not change while it exists), "" if never read.
  std::vector<std::string> unreadable_attributes{};

  bool operator==(const Port&) const = default;
  bool IsActive() const { return state == "ACTIVE"; }
  bool IsRoce() const { return link_layer == "Ethernet"; }
  // Every slot of the GID table was read: what `gids` lacks is empty, not unknown.
  bool GidTableKnown() const { return unreadable_gid_slots.empty() && !gid_table_unlistable; }
  bool GidSlotUnreadable(uint32_t index) const;
  bool AttributeUnreadable(std::string_view name) const;
};

// The netdev a port is known by in metrics: its first own netdev (device/net; a VLAN or bond upper
// that sorts before it is not it), else the first of its netdevs, else "".
std::string PrimaryNetdev(const Port& port);

struct Device {
  std::string name;  // mlx5_0
  std::string fw_ver;
  std::string hca_type;
  std::string node_guid;
  std::vector<Port> ports;  // ascending port number
  // Attributes whose read failed ("fw_ver", "hca_type", "node_guid"), sorted: unknown, "".
  std::vector<std::string> unreadable_attributes{};

  bool operator==(const Device&) const = default;
  bool AttributeUnreadable(std::string_view name) const;
};

// One failed read, named for the findings that report it.
struct ReadFailure {
  std::string source;  // "sysfs", "verbs"
  std::string path;    // the file or directory
  int sys_errno = 0;   // 0 when the read succeeded but the content was malformed

  bool operator==(const ReadFailure&) const = default;
};

// "Input/output error (EIO)"; "malformed content" for 0.
std::string ErrnoText(int sys_errno);

// How many failed reads a snapshot names (read_failures); the rest are only counted.
inline constexpr size_t kNamedReadFailures = 8;

// One complete observation of all RDMA devices.
struct NodeSnapshot {
  MonoTime taken_at{};
  std::vector<Device> devices;  // sorted by name
  // Failed reads while taking this snapshot, by source ("sysfs", "verbs"). Each one is an
  // attribute treated as absent; none is fatal.
  std::map<std::string, uint64_t> read_errors;
  // The first kNamedReadFailures of those failures, in the order they happened.
  std::vector<ReadFailure> read_failures;

  bool operator==(const NodeSnapshot&) const = default;

  const Device* FindDevice(const std::string& name) const;
  const Port* FindPort(const std::string& device, uint32_t port) const;
};

// A port's name in findings and reports: "mlx5_0/1".
inline std::string PortName(const std::string& device, uint32_t port) {
  return device + "/" + std::to_string(port);
}

}  // namespace rocewatch
