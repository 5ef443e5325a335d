#pragma once
// A SnapshotSource that returns a scripted node (stamped with the clock's time) or a scripted
// error, and counts how often it was read.

#include "core/clock.h"
#include "daemon/snapshot_source.h"

namespace rocewatch {

class FakeSnapshotSource final : public SnapshotSource {
 public:
  explicit FakeSnapshotSource(const Clock& clock) : clock_(clock) {}
  StatusOr<NodeSnapshot> Take() override {
    ++takes;
    if (!next_error.ok()) return next_error;
    NodeSnapshot copy = node;
    copy.taken_at = clock_.Now();
    return copy;
  }
  const char* gid_source_name() const override { return "sysfs"; }

  NodeSnapshot node;
  Status next_error;
  int takes = 0;

 private:
  const Clock& clock_;
};

}  // namespace rocewatch
