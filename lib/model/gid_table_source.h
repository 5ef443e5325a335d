#pragma once
// Where GID tables come from. Two implementations: verbs (ibv_query_gid_table: a copy of the table
// under the kernel's lock, no references taken) and sysfs (the fallback: every read of a GID file
// takes a reference on the entry; see "Observer effect" in docs/design.md). Tests use a fake.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "model/gid.h"

namespace rocewatch {

// A GID slot (or a port's whole table) whose content is unknown: the read of gids/<i>, or of the
// attributes of the non-zero GID it held, failed or gave malformed content. Not an empty slot:
// an empty slot reads as the zero GID, which is an answer.
struct UnreadableGidSlot {
  uint32_t port = 0;
  std::optional<uint32_t> index;  // nullopt: the port's table could not be listed at all
  std::string path;               // the file (or gids/ directory) that failed
  int sys_errno = 0;              // the read's errno; 0 when the content was malformed

  bool operator==(const UnreadableGidSlot&) const = default;
};

struct GidTableRead {
  std::vector<GidEntry> entries;  // valid entries only, ascending (port, index)
  uint64_t failed_reads = 0;      // attribute reads that failed (entry treated as not valid)
  // The slots behind failed_reads whose content is unknown, ascending (port, index), ports whose
  // table could not be listed first. A source that reads whole tables at once (verbs) leaves it
  // empty.
  std::vector<UnreadableGidSlot> unreadable;
};

class GidTableSource {
 public:
  virtual ~GidTableSource() = default;
  // "verbs" or "sysfs": the value of diagnose's gid_source and of source_errors_total{source}.
  virtual const char* name() const = 0;
  // The valid GID entries of every port of `device`. Errors: NotFound if the device is gone,
  // Unavailable if the source cannot serve it at all.
  virtual StatusOr<GidTableRead> ReadDevice(const std::string& device) = 0;
  // The devices may have changed (a device event; the sysfs layout was listed again): a source
  // that keeps per-device state (listed slots, open descriptors) drops it. Default: nothing.
  virtual void ForgetLayout() {}
  // A source that reads only the used part of a table (sysfs) reads every slot at its next read
  // of each device. Default: nothing (verbs copies whole tables).
  virtual void ReadWholeTablesNext() {}
  // Makes the re-enumeration of devices asked for since the last call, if any (verbs: the
  // daemon's periodic rescan, made where the reads are, behind their deadline). `still_wanted`
  // says whether the caller still owns the source once the driver has answered. Default: nothing.
  virtual void RefreshDevicesIfAsked(const std::function<bool()>& still_wanted) {
    (void)still_wanted;
  }
};

}  // namespace rocewatch
