#include "core/status.h"

#include <cerrno>
#include <cstring>

namespace rocewatch {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kNotFound:
      return "NotFound";
    case StatusCode::kInvalidArgument:
      return "InvalidArgument";
    case StatusCode::kIoError:
      return "IoError";
    case StatusCode::kPermissionDenied:
      return "PermissionDenied";
    case StatusCode::kUnavailable:
      return "Unavailable";
    case StatusCode::kCorrupt:
      return "Corrupt";
    case StatusCode::kInternal:
      return "Internal";
  }
  return "Unknown";
}

Status Status::FromErrno(int sys_errno, const std::string& context) {
  std::string msg = context + ": " + std::strerror(sys_errno);
  switch (sys_errno) {
    case ENOENT:
    case ENODEV:
    case ENXIO:
      return Status(StatusCode::kNotFound, std::move(msg), sys_errno);
    case EACCES:
    case EPERM:
      return Status(StatusCode::kPermissionDenied, std::move(msg), sys_errno);
    default:
      return Status(StatusCode::kIoError, std::move(msg), sys_errno);
  }
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(StatusCodeName(code_)) + ": " + message_;
}

}  // namespace rocewatch
