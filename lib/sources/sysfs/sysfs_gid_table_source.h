#pragma once
// GID tables read from sysfs: <sysfs_root>/class/infiniband/<dev>/ports/<p>/gids/<i> and
// gid_attrs/{types,ndevs}/<i>. The fallback source where verbs devices cannot be opened, and the
// one tests drive through a fixture tree.
//
// Observer effect (docs/design.md): every read of a GID attribute takes a kernel reference
// on the entry for the duration of the read. So this reader reads as little as it can:
//   - gids/<i> of every slot (the table's only complete view);
//   - a zero GID (empty, reserved or pending-delete slot) is not an entry: its types/ndevs are NOT
//     read;
//   - for a non-zero GID, gid_attrs/types/<i>, then gid_attrs/ndevs/<i> on RoCE ports only (on an
//     InfiniBand port, found by ports/<p>/link_layer, a GID has no netdev and the kernel fails the
//     read; the type "IB/RoCE v1" means kIb there).
// Any failing read (EINVAL as the kernel returns for an empty or pending slot, or any other errno)
// or unparsable content means "no valid entry" and counts in failed_reads; never fatal. Such a
// slot (a failed gids/<i>, or a non-zero GID whose attributes failed) is listed in
// GidTableRead::unreadable with its path and errno: its content is unknown, not empty. (The
// attributes of a zero GID are never read, so the kernel's EINVAL for an empty slot never makes
// it unknown.)
//
// The used part of a table only (docs/design.md, "Reading the used part of a sysfs GID table"):
// the kernel puts a new entry at the LOWEST free slot (drivers/infiniband/core/cache.c), so
// entries can only appear in holes below the highest slot ever used or contiguously above it.
// While layouts are kept (max_open > 0), a port's read covers every slot up to its high-water
// mark (the highest slot seen holding a non-zero GID since its layout was listed) and goes on
// until kGidScanMargin consecutive slots above the mark read as the zero GID; a slot it does not
// read held the zero GID at every read so far. A port is read WHOLE (every slot):
//   - on its first read after its device's layout is listed (a new device, one listed again
//     because a slot file was gone, one not read between two ForgetLayout calls);
//   - when a kept descriptor of the device had to be reopened during the read (the device was
//     removed and created again under the same name: a new table);
//   - on the next read of each device after ReadWholeTablesNext (the daemon: the reads that
//     answer an event and its hot window, and a periodic whole read);
//   - always with max_open == 0 (nothing is kept between reads).
// The high-water mark never goes down while the layout is kept: a slot whose entry was deleted
// while still referenced (pending delete) reads as the zero GID but stays occupied, so the next
// entry lands above it; the mark keeps such slots inside the part read. What a bounded read can
// miss: an entry above a run of kGidScanMargin zero-reading slots above the mark, i.e. slots
// whose entries were added and deleted (freed, or pending delete) without any read seeing them.
// With max_open > 0 the ports, their link layer and the gids/ slots of a device are listed on its
// first read and again only when a slot file is gone (see ForgetLayout), and the
// gids/<i> files are read through descriptors kept open (os/attribute_reader.h, at most max_open
// of them; about 3x cheaper per pass than open/read/close). The attributes of the few valid
// entries are read with open/read/close. With max_open == 0 everything is listed and opened on
// every read.
//
// Threading: ReadDevice is not reentrant per object; `fs` must outlive this object.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "model/gid_table_source.h"
#include "os/attribute_reader.h"
#include "os/file_system.h"

namespace rocewatch {

// How many consecutive zero-GID slots above a port's high-water mark end a bounded read. The
// kernel fills the lowest free slot, so a longer run of free slots followed by an entry needs at
// least this many entries both added and removed again between two reads of the port.
inline constexpr uint32_t kGidScanMargin = 16;

class SysfsGidTableSource final : public GidTableSource {
 public:
  SysfsGidTableSource(const FileSystem& fs, std::string sysfs_root, size_t max_open = 0);

  const char* name() const override { return "sysfs"; }
  // Errors: NotFound if <root>/class/infiniband/<device>/ports does not exist (device gone);
  // the Status of listing it otherwise. A port or slot that fails is counted, not fatal.
  StatusOr<GidTableRead> ReadDevice(const std::string& device) override;
  // Drops the layouts (and descriptors) of devices not read since the last call: they are gone.
  // The others are kept: a device's number of GID slots is fixed for its life, and a device
  // re-created under the same name is read through reopened descriptors (ENODEV, then a new
  // file) or listed again (a slot file missing).
  void ForgetLayout() override;
  // The next read of each device covers every slot of its ports.
  void ReadWholeTablesNext() override;

  struct ReadStats {
    uint64_t whole_port_reads = 0;    // ports read slot by slot to the end of the table
    uint64_t bounded_port_reads = 0;  // ports read up to the high-water mark + margin
    uint64_t slots_read = 0;          // gids/<i> files read
  };
  const ReadStats& read_stats() const { return read_stats_; }
  const AttributeReader& reader() const { return reader_; }

 private:
  struct Slot {
    uint32_t index = 0;
    std::string name;
    KeptAttribute gid;  // gids/<i>
  };
  struct PortSlots {
    uint32_t port = 0;
    std::string dir;
    bool infiniband = false;
    std::vector<Slot> slots;  // ascending index
    // The highest slot seen holding a non-zero GID since the listing; -1 for none.
    int64_t high_water = -1;
    bool read_whole = true;  // the next read covers every slot
  };
  struct DeviceSlots {
    std::vector<PortSlots> ports;
    // Ports whose gids/ could not be listed (index unset).
    std::vector<UnreadableGidSlot> failed_listings;
    bool stale = false;  // list again before the next read
    bool read = true;    // read since the last ForgetLayout
  };

  // Errors: NotFound if the device's ports/ is gone; the listing's Status otherwise. Open
  // descriptors of `previous` (may be null) are moved to the slots still listed.
  StatusOr<DeviceSlots> List(const std::string& device, DeviceSlots* previous);
  // False if a slot file turned out to be gone (the layout is stale).
  bool ReadSlots(DeviceSlots& layout, GidTableRead& read);
  // Reads the attributes of the non-zero GID `gid` at `slot` into read (or counts the failure).
  void ReadEntry(const PortSlots& port, const Slot& slot, std::string gid, GidTableRead& read);

  const FileSystem& fs_;
  std::string sysfs_root_;
  const bool keep_layouts_;
  AttributeReader reader_;
  std::map<std::string, DeviceSlots> layouts_;  // by device, while keep_layouts_
  std::string text_;                            // read buffer, reused
  ReadStats read_stats_;
};

}  // namespace rocewatch
