#pragma once
// Produces complete NodeSnapshots. Abstract so that the Monitor can be tested with values.

#include <utility>

#include "core/status.h"
#include "model/node.h"

namespace rocewatch {

class SnapshotSource {
 public:
  virtual ~SnapshotSource() = default;
  // One complete observation, stamped with the time it was taken. Errors: the source as a whole
  // failed (e.g. sysfs root unreadable); partial failures are counted in read_errors instead.
  virtual StatusOr<NodeSnapshot> Take() = 0;
  // The same observation written over `snapshot` (what the Monitor calls on every poll): a source
  // that keeps its state between polls overwrites an earlier snapshot of the same node in place,
  // reusing its strings, vectors and map nodes instead of building a new one. On error `snapshot`
  // is left in an unspecified state. Default: Take(), moved in.
  virtual Status TakeInto(NodeSnapshot& snapshot) {
    StatusOr<NodeSnapshot> taken = Take();
    if (!taken.ok()) return taken.status();
    snapshot = std::move(taken).value();
    return Status::Ok();
  }
  // Tells the source that the next Take() answers an event (a link, address or verbs change) rather
  // than the periodic timer, so the GID tables may have changed. A source may read its expensive
  // parts (sysfs GID tables) only around such events. Default: nothing to do.
  virtual void ExpectChange() {}
  // "verbs" or "sysfs": where GID tables come from.
  virtual const char* gid_source_name() const = 0;
};

}  // namespace rocewatch
