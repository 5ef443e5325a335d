#include "verbs/verbs_api.h"

namespace rocewatch {

const char* VerbsAsyncEventKindName(VerbsAsyncEventKind kind) {
  switch (kind) {
    case VerbsAsyncEventKind::kGidChange:
      return "gid_change";
    case VerbsAsyncEventKind::kPortActive:
      return "port_active";
    case VerbsAsyncEventKind::kPortError:
      return "port_error";
    case VerbsAsyncEventKind::kDeviceFatal:
      return "device_fatal";
    case VerbsAsyncEventKind::kOther:
      return "other";
  }
  return "other";
}

}  // namespace rocewatch
