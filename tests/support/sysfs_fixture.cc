#include "support/sysfs_fixture.h"

#include <cstdio>
#include <filesystem>
#include <set>

#include "model/gid.h"
#include "support/write_in_place.h"

namespace rocewatch {
namespace {

namespace fs = std::filesystem;

// Prepends the kernel's number to a bare state name ("ACTIVE" -> "4: ACTIVE").
std::string StateText(const std::string& text, const std::map<std::string, int>& codes) {
  if (text.find(':') != std::string::npos) return text;
  auto it = codes.find(text);
  return std::to_string(it == codes.end() ? 0 : it->second) + ": " + text;
}

const std::map<std::string, int> kStateCodes = {{"NOP", 0},   {"DOWN", 1},   {"INIT", 2},
                                                {"ARMED", 3}, {"ACTIVE", 4}, {"ACTIVE_DEFER", 5}};
const std::map<std::string, int> kPhysStateCodes = {
    {"Sleep", 1},  {"Polling", 2},           {"Disabled", 3}, {"PortConfigurationTraining", 4},
    {"LinkUp", 5}, {"LinkErrorRecovery", 6}, {"Phy Test", 7}};

std::string WithNewline(std::string text) {
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

// Writes files and the directories that stand in for unreadable attributes.
class TreeWriter {
 public:
  // In place (support/write_in_place.h): a descriptor kept open on the file sees the new content.
  Status File(const fs::path& path, const std::string& content) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    return WriteFileInPlace(path.string(), content);
  }
  // A directory where a file is expected: reads of it fail (EISDIR). It replaces a file that was
  // there, so a descriptor kept open on that file still reads the old content: to make a kept
  // attribute fail later, inject the failure (support/fault_injecting_file_system.h) instead.
  Status Unreadable(const fs::path& path) {
    std::error_code ec;
    if (fs::exists(path, ec) && !fs::is_directory(path, ec)) fs::remove(path, ec);
    fs::create_directories(path, ec);
    if (ec) return Status::IoError("cannot create " + path.string() + ": " + ec.message());
    return Status::Ok();
  }
};

Status WritePort(TreeWriter& w, const fs::path& dev_dir, const FixturePort& port, int* next_ifindex,
                 const fs::path& net_class_dir) {
  const fs::path dir = dev_dir / "ports" / std::to_string(port.number);
  std::set<std::string> unreadable(port.unreadable.begin(), port.unreadable.end());
  // Writes one attribute under the port directory unless the test wants it unreadable.
  auto attr = [&](const std::string& relative, const std::string& content) -> Status {
    if (unreadable.count(relative)) return w.Unreadable(dir / relative);
    return w.File(dir / relative, WithNewline(content));
  };
  std::map<uint32_t, const FixtureGid*> by_index;
  for (const FixtureGid& gid : port.gids) {
    if (gid.index >= port.gid_table_len) {
      return Status::InvalidArgument("GID index " + std::to_string(gid.index) +
                                     " outside a table of " + std::to_string(port.gid_table_len));
    }
    if (!by_index.emplace(gid.index, &gid).second) {
      return Status::InvalidArgument("duplicate GID index " + std::to_string(gid.index));
    }
  }

  Status s;
  if (!(s = attr("state", StateText(port.state, kStateCodes))).ok()) return s;
  if (!(s = attr("phys_state", StateText(port.phys_state, kPhysStateCodes))).ok()) return s;
  if (!(s = attr("link_layer", port.link_layer)).ok()) return s;
  if (!(s = attr("rate", port.rate)).ok()) return s;

  const std::string default_netdev = port.netdevs.empty() ? "" : port.netdevs.front();
  for (uint32_t i = 0; i < port.gid_table_len; ++i) {
    const std::string slot = std::to_string(i);
    auto it = by_index.find(i);
    if (it == by_index.end()) {
      if (!(s = attr("gids/" + slot, kZeroGidText)).ok()) return s;
      if (!(s = w.Unreadable(dir / "gid_attrs/types" / slot)).ok()) return s;
      if (!(s = w.Unreadable(dir / "gid_attrs/ndevs" / slot)).ok()) return s;
      continue;
    }
    const FixtureGid& gid = *it->second;
    if (!(s = attr("gids/" + slot, gid.gid)).ok()) return s;
    if (!(s = attr("gid_attrs/types/" + slot, gid.type_text)).ok()) return s;
    if (!(s = attr("gid_attrs/ndevs/" + slot, gid.netdev.empty() ? default_netdev : gid.netdev))
             .ok()) {
      return s;
    }
  }
  for (const auto& [name, value] : port.counters) {
    if (!(s = attr("counters/" + name, value)).ok()) return s;
  }
  std::map<std::string, std::string> hw = port.hw_counters;
  hw.emplace("lifespan", "10");
  for (const auto& [name, value] : hw) {
    if (!(s = attr("hw_counters/" + name, value)).ok()) return s;
  }

  const bool carrier = StateText(port.state, kStateCodes).find("ACTIVE") != std::string::npos;
  for (const std::string& netdev : port.netdevs) {
    const fs::path dev_net = dev_dir / "device/net" / netdev;
    if (!(s = w.File(dev_net / "dev_port", std::to_string(port.number - 1) + "\n")).ok()) return s;
    const fs::path net = net_class_dir / netdev;
    if (!(s = w.File(net / "ifindex", std::to_string((*next_ifindex)++) + "\n")).ok()) return s;
    if (!(s = w.File(net / "carrier", carrier ? "1\n" : "0\n")).ok()) return s;
    if (!(s = w.File(net / "operstate", carrier ? "up\n" : "down\n")).ok()) return s;
    if (!(s = w.File(net / "address", WithNewline(port.mac))).ok()) return s;
    if (!(s = w.File(net / "carrier_changes", "2\n")).ok()) return s;
  }
  return Status::Ok();
}

// Deterministic, plausible counter values for a rail.
std::map<std::string, std::string> MlxCounters(uint32_t seed) {
  const uint64_t base = 1000003ULL * (seed + 1);
  return {
      {"VL15_dropped", "0"},
      {"excessive_buffer_overrun_errors", "0"},
      {"link_downed", "1"},
      {"link_error_recovery", "0"},
      {"local_link_integrity_errors", "0"},
      {"multicast_rcv_packets", "0"},
      {"multicast_xmit_packets", "0"},
      {"port_rcv_constraint_errors", "0"},
      {"port_rcv_data", std::to_string(base * 250000)},
      {"port_rcv_errors", "0"},
      {"port_rcv_packets", std::to_string(base * 240)},
      {"port_rcv_remote_physical_errors", "0"},
      {"port_rcv_switch_relay_errors", "0"},
      {"port_xmit_constraint_errors", "0"},
      {"port_xmit_data", std::to_string(base * 260000)},
      {"port_xmit_discards", "0"},
      {"port_xmit_packets", std::to_string(base * 250)},
      {"port_xmit_wait", "0"},
      {"symbol_error", "0"},
      {"unicast_rcv_packets", std::to_string(base * 240)},
      {"unicast_xmit_packets", std::to_string(base * 250)},
  };
}

std::map<std::string, std::string> MlxHwCounters(uint32_t seed) {
  std::map<std::string, std::string> hw;
  const char* kZero[] = {"duplicate_request",
                         "implied_nak_seq_err",
                         "local_ack_timeout_err",
                         "out_of_buffer",
                         "packet_seq_err",
                         "req_cqe_error",
                         "req_cqe_flush_error",
                         "req_remote_access_errors",
                         "req_remote_invalid_request",
                         "resp_cqe_error",
                         "resp_cqe_flush_error",
                         "resp_local_length_error",
                         "resp_remote_access_errors",
                         "rnr_nak_retry_err",
                         "roce_adp_retrans_to",
                         "roce_slow_restart",
                         "roce_slow_restart_cnps",
                         "roce_slow_restart_trans",
                         "rp_cnp_ignored",
                         "rx_atomic_requests",
                         "rx_dct_connect",
                         "rx_icrc_encapsulated"};
  for (const char* name : kZero) hw[name] = "0";
  hw["out_of_sequence"] = std::to_string(3 + seed);
  hw["roce_adp_retrans"] = std::to_string(12 + seed);
  hw["np_cnp_sent"] = std::to_string(4100 + 7 * seed);
  hw["np_ecn_marked_roce_packets"] = std::to_string(5200 + 11 * seed);
  hw["rp_cnp_handled"] = std::to_string(3900 + 5 * seed);
  hw["rx_read_requests"] = std::to_string(880000 + seed);
  hw["rx_write_requests"] = std::to_string(91000000 + 13 * seed);
  return hw;
}

}  // namespace

Status WriteSysfsFixture(const std::string& sysfs_root, const std::vector<FixtureDevice>& devices) {
  TreeWriter w;
  const fs::path root(sysfs_root);
  const fs::path net_class_dir = root / "class/net";
  std::error_code ec;
  fs::create_directories(root / "class/infiniband", ec);
  if (ec) return Status::IoError("cannot create " + sysfs_root + ": " + ec.message());
  int next_ifindex = 2;  // 1 is lo
  for (const FixtureDevice& device : devices) {
    const fs::path dev_dir = root / "class/infiniband" / device.name;
    Status s;
    if (!(s = w.File(dev_dir / "fw_ver", WithNewline(device.fw_ver))).ok()) return s;
    if (!(s = w.File(dev_dir / "hca_type", WithNewline(device.hca_type))).ok()) return s;
    if (!(s = w.File(dev_dir / "node_guid", WithNewline(device.node_guid))).ok()) return s;
    for (const FixturePort& port : device.ports) {
      if (!(s = WritePort(w, dev_dir, port, &next_ifindex, net_class_dir)).ok()) return s;
    }
  }
  return Status::Ok();
}

std::string LinkLocalGidOfMac(const std::string& mac) {
  unsigned b[6] = {};
  if (std::sscanf(mac.c_str(), "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) !=
      6) {
    return kZeroGidText;
  }
  char text[40];
  std::snprintf(text, sizeof(text), "fe80:0000:0000:0000:%02x%02x:%02xff:fe%02x:%02x%02x",
                (b[0] ^ 0x02) & 0xff, b[1] & 0xff, b[2] & 0xff, b[3] & 0xff, b[4] & 0xff,
                b[5] & 0xff);
  return text;
}

FixtureDevice RoceDevice(const std::string& name, const std::string& netdev, const std::string& mac,
                         const std::vector<std::string>& ipv4, uint32_t seed,
                         uint32_t gid_table_len) {
  FixturePort port;
  port.number = 1;
  port.gid_table_len = gid_table_len;
  port.netdevs = {netdev};
  port.mac = mac;
  port.addresses = ipv4;
  const std::string link_local = LinkLocalGidOfMac(mac);
  port.gids = {{0, link_local, "IB/RoCE v1", netdev}, {1, link_local, "RoCE v2", netdev}};
  uint32_t next = 2;
  for (const std::string& address : ipv4) {
    std::string gid = GidOfAddress(address).value_or(kZeroGidText);
    port.gids.push_back({next++, gid, "IB/RoCE v1", netdev});
    port.gids.push_back({next++, gid, "RoCE v2", netdev});
  }
  port.counters = MlxCounters(seed);
  port.hw_counters = MlxHwCounters(seed);

  FixtureDevice device;
  device.name = name;
  device.node_guid = link_local.substr(20);  // the EUI-64 of the MAC, as mlx5 RoCE shows it
  device.ports.push_back(std::move(port));
  return device;
}

FixtureDevice RailDevice(int rail, uint32_t gid_table_len) {
  char mac[18];
  std::snprintf(mac, sizeof(mac), "0c:42:a1:5e:%02x:%02x", (rail >> 8) & 0xff, rail & 0xff);
  const std::string ip = "10.0." + std::to_string(rail & 0xff) + ".2/24";
  return RoceDevice("mlx5_" + std::to_string(rail), "ens" + std::to_string(rail + 1) + "f0np0", mac,
                    {ip}, static_cast<uint32_t>(rail), gid_table_len);
}

std::vector<FixtureDevice> RailNode(int rails, uint32_t gid_table_len) {
  std::vector<FixtureDevice> devices;
  for (int r = 0; r < rails; ++r) devices.push_back(RailDevice(r, gid_table_len));
  return devices;
}

std::vector<FixtureDevice> FullTableNode(int devices, int ports) {
  std::vector<FixtureDevice> node = RailNode(devices);
  for (int d = 0; d < devices; ++d) {
    FixturePort first = node[static_cast<size_t>(d)].ports.at(0);
    node[static_cast<size_t>(d)].ports.clear();
    for (int p = 0; p < ports; ++p) {
      FixturePort port = first;
      port.number = static_cast<uint32_t>(p + 1);
      port.netdevs = {"ens" + std::to_string(d + 1) + "f" + std::to_string(p) + "np" +
                      std::to_string(p)};
      port.gids.clear();
      for (uint32_t i = 0; i < port.gid_table_len; ++i) {
        char gid[40];
        std::snprintf(gid, sizeof(gid), "0000:0000:0000:0000:0000:ffff:0a%02x:%02x%02x", d & 0xff,
                      p & 0xff, i & 0xff);
        port.gids.push_back({i, gid, "RoCE v2", ""});
      }
      node[static_cast<size_t>(d)].ports.push_back(std::move(port));
    }
  }
  return node;
}

std::vector<FixtureDevice> ExampleEightRailNode() {
  std::vector<FixtureDevice> devices = RailNode(8);
  // mlx5_3: the IP flapped while a job held references on 2/3; it came back at 4/5.
  for (FixtureGid& gid : devices[3].ports[0].gids) {
    if (gid.index >= 2) gid.index += 2;
  }
  return devices;
}

}  // namespace rocewatch
