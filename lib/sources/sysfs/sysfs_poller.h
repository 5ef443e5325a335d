#pragma once
// The daemon's sysfs reader: the same NodeSnapshot as SysfsInventory::Read (sysfs/sysfs_inventory.h
// says what is read from where, and how failures count), at a fraction of the cost, because it
// keeps state between polls:
//   - the layout (devices, ports, the names in counters/ and hw_counters/, the netdevs of
//     device/net/, the number of GID slots) is listed on the first poll and again only when the
//     caller asks (PollScope::list: after a device event or on a backstop), or when a device
//     turns out to be gone;
//   - every attribute is read through a descriptor kept open (os/attribute_reader.h), kept across
//     listings while its path is still listed: on sysfs a file is never replaced while its object
//     exists, and once the object is gone the kept descriptor fails (ENODEV) and is reopened.
//     (A test fixture that deletes and re-creates a file must not keep descriptors: max_open 0.)
//   - each poll reads only what its PollScope asks for, and carries forward the last values of
//     the rest: the byte counters (counters/port_xmit_data, port_rcv_data) always; the port
//     attributes (state, phys_state, rate) and every other counter and hw_counter when asked;
//     GID tables when a GidTableSource is given.
// Every failed read is counted in read_errors and the first kNamedReadFailures are named in
// read_failures (path and errno), this poll's reads only. A GID slot whose read failed is listed
// in its port's unreadable_gid_slots, carried forward with the table it belongs to.
// A device is reported complete or not at all: when one of its reads fails with NotFound and its
// directory is gone, it is left out of this snapshot and the layout is listed again next time.
//
// taken_at is not set (the caller stamps it). Threading: not thread-safe (one loop thread);
// `fs` must outlive this object.

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/status.h"
#include "model/gid_table_source.h"
#include "model/node.h"
#include "os/attribute_reader.h"
#include "os/file_system.h"

namespace rocewatch {

struct PollScope {
  // List the layout again.
  bool list = false;
  // Read the port attributes (state, phys_state, rate, link_layer) and every counter.
  bool everything = false;
  // Read the GID tables (otherwise the last ones are carried forward; a port without a known
  // table has its device's tables read anyway).
  bool gids = false;
};

class SysfsPoller {
 public:
  // max_open: the budget of kept descriptors (KeptDescriptorBudget). gids may be null (GID tables
  // are then never read); without read_counters no counters/ or hw_counters/ file is listed or
  // read. REQUIRES: fs and gids outlive this object.
  SysfsPoller(const FileSystem& fs, std::string sysfs_root, GidTableSource* gids, size_t max_open,
              bool read_counters = true);

  // Errors: as SysfsInventory::Read (a missing or unreadable sysfs root). The first poll, and any
  // poll after the layout was dropped, lists and reads everything whatever `scope` says.
  StatusOr<NodeSnapshot> Poll(const PollScope& scope);
  // The same snapshot written over `snapshot` (read_errors replaced, taken_at left as it is):
  // the strings, vectors and counter maps of an earlier snapshot of this node are reused, so a
  // steady-state poll allocates next to nothing. On error `snapshot` is unspecified.
  Status PollInto(const PollScope& scope, NodeSnapshot& snapshot);

  // GID table reads of one device made so far (benchmarks, tests).
  uint64_t gid_device_reads() const { return gid_device_reads_; }
  // True once a layout is listed; false again after a device vanished (the next poll lists).
  bool has_layout() const { return has_layout_; }
  const AttributeReader& reader() const { return reader_; }
  // Directory listings made so far (benchmarks, tests).
  uint64_t listings() const { return listings_; }

 private:
  struct Counter {
    std::string name;
    KeptAttribute file;
  };
  struct PortLayout {
    std::string dir;
    KeptAttribute state, phys_state, link_layer, rate;
    std::vector<Counter> counters;     // counters/, name order
    std::vector<Counter> hw_counters;  // hw_counters/ but settings, name order
    int transmit_data = -1;            // index in counters of port_xmit_data, -1 if absent
    int receive_data = -1;
    std::vector<std::string> listed_netdevs;  // of device/net/, sorted
    bool has_gids = false;                    // last.gids was read (or carried over a listing)
    Port last;                                // the values as last read
  };
  struct DeviceLayout {
    std::string name;
    std::string dir;
    std::vector<PortLayout> ports;  // ascending number
    Device last;                    // name and attributes as last read (ports are in `ports`)
  };

  // What a listing carries over from the layout before it: GID tables (they change with address
  // events, not with a listing), link layer and rate (kept when their next read fails), and the
  // descriptors of attributes still listed.
  struct CarriedOver {
    std::map<std::pair<std::string, uint32_t>, Port> gids;  // gids and unreadable slots
    std::map<std::pair<std::string, uint32_t>, std::pair<std::string, std::string>> link_layer_rate;
    std::map<std::string, KeptAttribute> open;
    // The attribute at `path`: its kept descriptor, or a new one (opened at its first read).
    KeptAttribute Attribute(std::string path);
  };

  Status List(NodeSnapshot& snapshot);
  // Moves what a listing keeps out of devices_ (then cleared).
  CarriedOver TakeLayout();
  // The device's netdevs by port number: device/net/<if>, by dev_port when it has several ports.
  std::map<uint32_t, std::set<std::string>> NetdevsByPort(const std::string& device_dir,
                                                          const std::vector<uint32_t>& numbers,
                                                          uint64_t& errors);
  PortLayout LayOutPort(const DeviceLayout& device, uint32_t number,
                        const std::set<std::string>& netdevs, CarriedOver& carried,
                        uint64_t& errors);
  std::vector<std::string> ListOrEmpty(const std::string& path, bool absent_ok, uint64_t& errors);
  // Reads into *text; false with the failure counted (NotFound also sets *gone).
  bool ReadAttribute(KeptAttribute& attribute, std::string* text, uint64_t& errors, bool* gone);
  // Failed reads are named in `unreadable` as prefix + name (its other entries of that prefix
  // are replaced).
  void ReadCounters(std::vector<Counter>& files, std::map<std::string, uint64_t>& values,
                    const char* prefix, std::vector<std::string>& unreadable, uint64_t& errors,
                    bool* gone);
  void ReadDataCounters(PortLayout& port, uint64_t& errors, bool* gone);
  void ReadPortAttributes(PortLayout& port, uint64_t& errors, bool* gone);
  // Names a failed read in this poll's read_failures (within kNamedReadFailures).
  void NoteFailure(const char* source, const std::string& path, int sys_errno);
  // Reads the device's GID tables into its ports; false if the device is gone.
  bool ReadGids(DeviceLayout& device, NodeSnapshot& snapshot);

  const FileSystem& fs_;
  const std::string sysfs_root_;
  GidTableSource* const gids_;
  const bool read_counters_;
  AttributeReader reader_;
  std::vector<DeviceLayout> devices_;  // sorted by name
  bool has_layout_ = false;
  uint64_t listings_ = 0;
  uint64_t gid_device_reads_ = 0;
  std::string text_;                   // read buffer, reused
  std::vector<ReadFailure> failures_;  // this poll's named failures, moved into the snapshot
};

}  // namespace rocewatch
