#pragma once
// Writes a fixture file the way the kernel changes a sysfs attribute: the same file (inode) gets
// the new content, so a reader that keeps a descriptor open and preads it (os/attribute_reader.h)
// sees the new value, as it would on a real host. A write by rename would leave such a reader on
// the old file forever.
//
// The content is written at offset 0 in one pwrite and the file then cut to its length, so a
// concurrent reader sees the old content, the new one, or (only when the new content is shorter)
// the new content followed by the tail of the old one; never an empty file.

#include <string>

#include "core/status.h"

namespace rocewatch {

// Creates the file (mode 0644) if needed; a directory at `path` (a fixture's unreadable marker)
// is removed first. Parent directories must exist. Errors: IoError naming the path and errno.
Status WriteFileInPlace(const std::string& path, const std::string& content);

}  // namespace rocewatch
