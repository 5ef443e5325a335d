#pragma once
// Errors as values. No exception crosses a lib/ boundary: fallible calls return Status or
// StatusOr<T>. errno is translated into a Status in one place (Status::FromErrno).

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace rocewatch {

enum class StatusCode {
  kOk,
  kNotFound,          // the thing is absent (ENOENT, a device that is gone)
  kInvalidArgument,   // bad input from a user or a file: flags, malformed content
  kIoError,           // a read or write failed (EIO, EINVAL from sysfs, ...)
  kPermissionDenied,  // EACCES / EPERM
  kUnavailable,       // a subsystem that is not there (no RDMA in the kernel, no verbs device)
  kCorrupt,           // content that parsed but does not make sense (a state file)
  kInternal,
};

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  static Status Ok() { return Status(); }
  static Status NotFound(std::string msg) { return Status(StatusCode::kNotFound, std::move(msg)); }
  static Status InvalidArgument(std::string msg) {
    return Status(StatusCode::kInvalidArgument, std::move(msg));
  }
  static Status IoError(std::string msg, int sys_errno = 0) {
    return Status(StatusCode::kIoError, std::move(msg), sys_errno);
  }
  static Status PermissionDenied(std::string msg) {
    return Status(StatusCode::kPermissionDenied, std::move(msg));
  }
  static Status Unavailable(std::string msg) {
    return Status(StatusCode::kUnavailable, std::move(msg));
  }
  static Status Corrupt(std::string msg) { return Status(StatusCode::kCorrupt, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(StatusCode::kInternal, std::move(msg)); }
  // Maps an errno value to a code (ENOENT -> NotFound, EACCES/EPERM -> PermissionDenied, others ->
  // IoError) and keeps the errno. `context` names what failed, e.g. the path.
  static Status FromErrno(int sys_errno, const std::string& context);

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  // The errno behind the failure, 0 when none.
  int sys_errno() const { return errno_; }
  const std::string& message() const { return message_; }
  // "NotFound: /sys/class/infiniband/x: No such file or directory", or "OK".
  std::string ToString() const;

 private:
  Status(StatusCode code, std::string msg, int sys_errno = 0)
      : code_(code), message_(std::move(msg)), errno_(sys_errno) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  int errno_ = 0;
};

const char* StatusCodeName(StatusCode code);

// A value or the Status that explains its absence.
// REQUIRES: a StatusOr built from a Status holds a non-OK status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    assert(!status_.ok());
    if (status_.ok()) status_ = Status::Internal("StatusOr built from an OK status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  // REQUIRES: ok().
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const T& operator*() const& { return *value_; }
  T& operator*() & { return *value_; }
  const T* operator->() const { return &*value_; }
  T* operator->() { return &*value_; }
  T value_or(T fallback) const { return ok() ? *value_ : std::move(fallback); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace rocewatch
