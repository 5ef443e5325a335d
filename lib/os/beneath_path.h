#pragma once
// Opening a path below a directory without ever leaving it: the one place where rocewatch
// resolves a path it does not trust (a support bundle being read or written, a --host-root tree).
//
// With the kernel's openat2(2) (Linux 5.6+) the kernel resolves the path with RESOLVE_BENEATH
// (and RESOLVE_NO_SYMLINKS when no link may be followed); on an older kernel (ENOSYS) the same
// rules are applied in user space one component at a time, every step opened with O_NOFOLLOW
// relative to the descriptor of the step before, so a link swapped in between steps is refused
// rather than followed.

#include <string>

#include "core/status.h"

namespace rocewatch {

enum class BeneathLinks {
  // Relative links whose target stays below the root resolve (sysfs' own links:
  // class/infiniband/mlx5_0 -> ../../devices/...); an absolute link, or one whose ".." climbs
  // above the root, is refused.
  kFollowInside,
  // No link is followed at all, not even one inside (writing a bundle).
  kNone,
};

enum class BeneathResolver {
  kKernelIfAvailable,  // openat2, falling back to user space where the kernel lacks it
  kUserSpace,          // always the per-component walk (tests of the fallback)
};

// Opens `relative` (no leading '/', may be "" or "." for the root itself) below the directory
// `root_fd` with open(2) `flags` (O_NOFOLLOW and O_CLOEXEC are added) and `mode` for O_CREAT.
// Returns the new descriptor, which the caller closes.
// Errors: Status::FromErrno of the failing step, naming `relative`; a path refused because it
// would leave the root or follow a link `links` forbids is IoError with errno EXDEV (leaves the
// root) or ELOOP (a link where none may be followed), its message saying "refused" and why.
StatusOr<int> OpenBeneath(int root_fd, const std::string& relative, int flags, BeneathLinks links,
                          unsigned mode = 0,
                          BeneathResolver resolver = BeneathResolver::kKernelIfAvailable);

// True if `status` is a refusal of OpenBeneath (as opposed to a missing or unreadable file).
bool IsRefusedPath(const Status& status);

}  // namespace rocewatch
