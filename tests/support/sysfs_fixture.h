#pragma once
// Builds sysfs trees of RDMA hosts on disk for tests, benchmarks and the bundled example node
// (tests/fixture_tool: rocewatch-fixture). The layout is the kernel's:
//   <root>/class/infiniband/<dev>/{fw_ver,hca_type,node_guid}
//   <root>/class/infiniband/<dev>/ports/<p>/{state,phys_state,link_layer,rate}
//   .../ports/<p>/gids/<i>                      every slot; empty ones hold the zero GID
//   .../ports/<p>/gid_attrs/{types,ndevs}/<i>   valid entries; empty slots get a DIRECTORY here
//   .../ports/<p>/counters/*, hw_counters/* (with the lifespan setting)
//   <root>/class/infiniband/<dev>/device/net/<netdev>/dev_port   (0-based port)
//   <root>/class/net/<netdev>/{ifindex,carrier,operstate,address,carrier_changes}
// Real sysfs fails the attribute reads of an empty slot with EINVAL; a plain file cannot, so the
// fixture puts a directory there and a real read fails with EISDIR (same meaning: no valid entry).
// `unreadable` paths get the same treatment. Directories in the fixture are real directories,
// not the symbolic links of real sysfs.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace rocewatch {

// The all-zero GID of an empty slot, as sysfs prints it.
inline constexpr char kZeroGidText[] = "0000:0000:0000:0000:0000:0000:0000:0000";

struct FixtureGid {
  uint32_t index = 0;
  std::string gid;                    // as sysfs prints it: 8 groups of 4 hex digits
  std::string type_text = "RoCE v2";  // gid_attrs/types content: "IB/RoCE v1", "RoCE v2", ...
  std::string netdev;                 // gid_attrs/ndevs content; empty: the port's first netdev
};

struct FixturePort {
  uint32_t number = 1;
  // The name ("ACTIVE", "LinkUp") or the full sysfs text ("4: ACTIVE"); a name gets the kernel's
  // number prepended.
  std::string state = "ACTIVE";
  std::string phys_state = "LinkUp";
  std::string link_layer = "Ethernet";
  std::string rate = "400 Gb/sec (4X NDR)";
  uint32_t gid_table_len = 255;
  std::vector<FixtureGid> gids;                    // valid entries; other slots are empty
  std::map<std::string, std::string> counters;     // counters/<name> -> content
  std::map<std::string, std::string> hw_counters;  // hw_counters/<name> -> content (+ lifespan)
  std::vector<std::string> netdevs;                // device/net/<netdev> with dev_port = number-1
  // Paths relative to the port directory ("gid_attrs/types/3", "counters/symbol_error") whose
  // reads must fail: written as directories.
  std::vector<std::string> unreadable;
  // Not written to sysfs (addresses live in netlink): the IPs the GIDs were made from, as
  // "10.0.3.2/24", for tests that also stand up netdevs (fake netlink, veth).
  std::vector<std::string> addresses;
  std::string mac;  // class/net/<netdev>/address of every netdev of the port
};

struct FixtureDevice {
  std::string name;  // mlx5_0
  std::string fw_ver = "28.39.1002";
  std::string hca_type = "MT4129";
  std::string node_guid = "0c42:a103:005e:0000";
  std::vector<FixturePort> ports;
};

// Writes the tree under sysfs_root (created if needed; existing files are overwritten).
// Errors: IoError naming the path that could not be written; InvalidArgument for a GID index
// outside the port's table or a duplicate index.
Status WriteSysfsFixture(const std::string& sysfs_root, const std::vector<FixtureDevice>& devices);

// fe80:0000:0000:0000:<EUI-64 of mac>: the default GID of a netdev. "0c:42:a1:5e:00:03" ->
// "fe80:0000:0000:0000:0e42:a1ff:fe5e:0003".
std::string LinkLocalGidOfMac(const std::string& mac);

// A one-port RoCE device as mlx5 lays it out: default GIDs (fe80::EUI-64 of mac) at slots 0
// ("IB/RoCE v1") and 1 ("RoCE v2"), then one v1 + v2 pair per IPv4 address (IPv4-mapped GIDs) at
// the lowest free slots (2/3, 4/5, ...). ipv4 entries may carry a prefix ("10.0.0.2/24").
// Realistic mlx5 counters/ and hw_counters/ (values derived from `seed`).
FixtureDevice RoceDevice(const std::string& name, const std::string& netdev, const std::string& mac,
                         const std::vector<std::string>& ipv4, uint32_t seed = 0,
                         uint32_t gid_table_len = 255);

// Rail r of a GPU node: mlx5_<r>, netdev ens<r+1>f0np0, MAC 0c:42:a1:5e:<r>, IPv4 10.0.<r>.2/24.
FixtureDevice RailDevice(int rail, uint32_t gid_table_len = 255);
// A healthy node of `rails` rails (RailDevice(0..rails-1)); 16 for benchmarks. Tests that do not
// need full tables may pass a small gid_table_len: a 255-slot table is ~800 files and dirs.
std::vector<FixtureDevice> RailNode(int rails, uint32_t gid_table_len = 255);
// The scale case: `devices` devices of `ports` ports each (netdev ens<d+1>f<p-1>np<p-1>), every
// slot of every 255-slot GID table valid (RoCE v2, ::ffff:10.<d>.<p>.<i>): the largest exposition
// and GID read a node can have.
std::vector<FixtureDevice> FullTableNode(int devices, int ports);
// The bundled example: RailNode(8) with rail mlx5_3 DRIFTED: slots 2/3 empty (holes left by
// references held across an IP flap), its v1/v2 IPv4 GIDs at 4/5.
std::vector<FixtureDevice> ExampleEightRailNode();

}  // namespace rocewatch
