#pragma once
// A GidTableSource whose device reads go through a CallWatch (os/call_watch.h), named
// "<source> <device>" (e.g. "verbs mlx5_0"): for the verbs source, whose ioctls do not pass through
// a FileSystem. A device whose read is stuck in another thread, or a read after the watch was
// abandoned, fails at once with Unavailable. The sysfs source needs no wrapper: it reads through
// a WatchedFileSystem, which names every file.
//
// Threading: the thread that owns the watch. REQUIRES: watch outlives this object.

#include <memory>
#include <string>

#include "model/gid_table_source.h"
#include "os/call_watch.h"

namespace rocewatch {

class WatchedGidTableSource final : public GidTableSource {
 public:
  WatchedGidTableSource(std::unique_ptr<GidTableSource> source, CallWatch& watch)
      : source_(std::move(source)), watch_(watch) {}

  const char* name() const override { return source_->name(); }
  // A re-enumeration asked for is made first, as its own watched call ("verbs re-enumeration"),
  // and applied only if this thread was not given up on meanwhile.
  StatusOr<GidTableRead> ReadDevice(const std::string& device) override {
    RefreshDevicesIfAsked([this] { return !watch_.abandoned(); });
    const std::string what = std::string(name()) + " " + device;
    if (!watch_.Begin(name(), what))
      return Status::Unavailable("a GID table read is stuck or was given up on: " + what);
    StatusOr<GidTableRead> read = source_->ReadDevice(device);
    watch_.End();
    return read;
  }
  void ForgetLayout() override { source_->ForgetLayout(); }
  void ReadWholeTablesNext() override { source_->ReadWholeTablesNext(); }
  void RefreshDevicesIfAsked(const std::function<bool()>& still_wanted) override {
    if (!watch_.Begin(name(), std::string(name()) + " re-enumeration")) return;
    source_->RefreshDevicesIfAsked(still_wanted);
    watch_.End();
  }

 private:
  const std::unique_ptr<GidTableSource> source_;
  CallWatch& watch_;
};

}  // namespace rocewatch
