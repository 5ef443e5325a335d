#include "os/open_file_limit.h"

#include <sys/resource.h>

#include <cerrno>

namespace rocewatch {

StatusOr<uint64_t> RaiseOpenFileLimit() {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return Status::FromErrno(errno, "getrlimit");
  if (limit.rlim_cur < limit.rlim_max) {
    struct rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  return static_cast<uint64_t>(limit.rlim_cur);
}

}  // namespace rocewatch
