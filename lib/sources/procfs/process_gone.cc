#include "procfs/process_gone.h"

#include <cerrno>

namespace rocewatch {

bool ProcessGone(const Status& status) {
  return status.code() == StatusCode::kNotFound || status.sys_errno() == ESRCH;
}

}  // namespace rocewatch
