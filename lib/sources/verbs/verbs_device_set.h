#pragma once
// The RDMA devices libibverbs can open, kept open for the life of the daemon (one ibv_context per
// device: its async_fd announces GID changes and port state changes). Refresh() enumerates
// (ibv_get_device_list): devices that appeared are opened, devices no longer listed are closed.
// A device that reports DEVICE_FATAL or fails on its async fd is closed at once and re-opened by a
// later Refresh() if it is listed again.
//
// "No devices" (no RDMA in the kernel, or none registered) is a state with a reason, not an error.
//
// In the daemon the periodic re-enumeration is asked for (RequestRefresh) on the loop and made by
// the GID reader (RefreshIfRequested, at its next device read), on the reading thread behind the
// read deadline: ibv_get_device_list and ibv_open_device reach the driver, which may be wedged.
// The loop takes what those refreshes found (TakeRefreshResults) after the poll.
//
// Threading: one thread at a time: the loop, or the reading thread while the loop waits for it
// (the handoff orders their accesses). RequestRefresh and TakeRefreshResults are thread-safe.
// Lifetime: holds `api` by reference; it must outlive this.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/status.h"
#include "verbs/verbs_api.h"

namespace rocewatch {

class VerbsDeviceSet {
 public:
  // An open device and what the GID reader learned about it.
  struct Entry {
    std::unique_ptr<VerbsDevice> device;
    // Room for ibv_query_gid_table(): the sum of gid_tbl_len over ports, grown on EINVAL.
    // 0 until first sized.
    size_t gid_capacity = 0;
  };

  struct RefreshResult {
    std::vector<std::string> opened;
    std::vector<std::string> closed;                     // no longer listed
    std::vector<std::pair<std::string, Status>> failed;  // listed but could not be opened
    Status list_status;  // a failure of the enumeration itself (devices stay as they were)
    bool changed() const { return !opened.empty() || !closed.empty(); }
  };

  // What draining a device's async events asks for.
  struct AsyncOutcome {
    // One reason per event that calls for a GID snapshot, e.g. "verbs gid_change mlx5_0/1".
    std::vector<std::string> snapshot_reasons;
    uint64_t events = 0;       // events read and acknowledged
    bool device_lost = false;  // DEVICE_FATAL or a failing async fd: the device was closed
    std::string lost_reason;
  };

  explicit VerbsDeviceSet(VerbsApi& api) : api_(api) {}
  VerbsDeviceSet(const VerbsDeviceSet&) = delete;
  VerbsDeviceSet& operator=(const VerbsDeviceSet&) = delete;

  // `still_wanted` (if set) is asked after the listing and the opening, before the set changes:
  // false (the calling thread was given up on while the driver answered) leaves the set as it is
  // and closes what was opened.
  RefreshResult Refresh(const std::function<bool()>& still_wanted = nullptr);
  // Asks for a Refresh at the next RefreshIfRequested.
  void RequestRefresh() { refresh_requested_.store(true, std::memory_order_release); }
  // Refreshes if asked since the last one, keeping the result for TakeRefreshResults.
  void RefreshIfRequested(const std::function<bool()>& still_wanted = nullptr);
  // The results of the refreshes RefreshIfRequested made since the last call, oldest first.
  std::vector<RefreshResult> TakeRefreshResults();

  bool empty() const { return open_.empty(); }
  size_t size() const { return open_.size(); }
  // Names of the open devices, sorted.
  std::vector<std::string> names() const;
  // Why no device is open after the last Refresh (ENOSYS, empty list, every open failed); empty
  // while at least one device is open.
  const std::string& absent_reason() const { return absent_reason_; }

  // The open device `name`, or nullptr. The pointer is valid until the next Refresh, Close or
  // DrainAsyncEvents.
  Entry* Find(const std::string& name);
  // Closes `name` (no-op if not open).
  void Close(const std::string& name);
  // Opens `name` if it is not open (a device sysfs shows before the next Refresh, or one lost and
  // back). After a failure, the next attempts are skipped with a doubling backoff (1, 2, 4, ... up
  // to kMaxOpenBackoff calls), so a device that cannot be opened is not retried on every poll.
  // Errors: the open's (NotFound if not listed), or Unavailable while backing off.
  StatusOr<Entry*> FindOrOpen(const std::string& name);
  static constexpr uint32_t kMaxOpenBackoff = 64;

  // Reads and acknowledges the pending async events of `name` (at most max_events of them, so a
  // storm cannot starve the loop; the fd stays readable for the rest). Closes the device on
  // DEVICE_FATAL or a read error.
  AsyncOutcome DrainAsyncEvents(const std::string& name, size_t max_events = 64);

  VerbsApi& api() { return api_; }

 private:
  VerbsApi& api_;
  std::map<std::string, Entry> open_;
  struct Backoff {
    uint32_t skip = 0;  // calls to skip before the next attempt
    uint32_t next = 1;  // the skip after the next failure
    Status last;
  };
  std::map<std::string, Backoff> backoff_;
  std::string absent_reason_ = "not enumerated yet";
  std::atomic<bool> refresh_requested_{false};
  std::mutex results_mutex_;
  std::vector<RefreshResult> results_;  // GUARDED_BY(results_mutex_)
};

}  // namespace rocewatch
