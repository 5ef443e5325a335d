#pragma once
// A FileSystem whose every call goes through a CallWatch (os/call_watch.h), for a reading thread
// that another thread watches: each call (and each read of a descriptor it opened) is named by its
// path, a call on a path stuck in another thread fails at once with Unavailable ("stuck"), and
// once the watch is abandoned every call fails the same way, so that a thread that was given up
// on finishes without touching the host again.
//
// Threading: as the FileSystem beneath, for the one thread that owns the watch. REQUIRES: base and
// watch outlive this object and every file it opened.

#include "os/call_watch.h"
#include "os/file_system.h"

namespace rocewatch {

class WatchedFileSystem final : public FileSystem {
 public:
  // `source` names the calls in StuckCalls ("sysfs").
  WatchedFileSystem(const FileSystem& base, CallWatch& watch, std::string source)
      : base_(base), watch_(watch), source_(std::move(source)) {}

  StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) const override;
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override;
  StatusOr<std::vector<std::string>> ListDirUnordered(const std::string& path) const override;
  StatusOr<std::string> ReadLink(const std::string& path) const override;
  // False for a path stuck elsewhere (as for one that does not exist).
  bool IsDirectory(const std::string& path) const override;
  StatusOr<std::unique_ptr<OpenFile>> Open(const std::string& path) const override;

  // Begin()s a call on `path`; false with *refused set to the error to return.
  bool Begin(const std::string& path, Status* refused) const;
  void End() const { watch_.End(); }

 private:
  const FileSystem& base_;
  CallWatch& watch_;
  const std::string source_;
};

}  // namespace rocewatch
