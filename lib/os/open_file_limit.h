#pragma once
// The process's open-file limit (RLIMIT_NOFILE). The daemon keeps one descriptor per sysfs
// attribute it polls (about 5,000 on a 16-rail node with sysfs GID tables; see
// os/attribute_reader.h), more than the usual soft limit of 1,024, so it raises its soft limit to
// the hard one at start (allowed without privileges; systemd's default hard limit is 524,288 and
// the unit asks for 65,536).

#include <cstdint>

#include "core/status.h"

namespace rocewatch {

// Raises the soft limit to the hard limit and returns the soft limit in force afterwards.
// Errors: IoError with the errno of getrlimit (setrlimit failing leaves the old soft limit,
// which is returned).
StatusOr<uint64_t> RaiseOpenFileLimit();

}  // namespace rocewatch
