#pragma once
// Puts the async fds of the open verbs devices on the event loop. GID_CHANGE, PORT_ACTIVE and
// PORT_ERR ask for a GID snapshot (the caller's settle delay and coalescing apply: the kernel
// sends one GID_CHANGE per entry added or removed). DEVICE_FATAL, a failing fd or an fd hangup
// close the device and ask for a re-enumeration and a snapshot; a periodic re-enumeration picks up
// new devices. A re-enumeration is asked for, not made here: the GID reader makes it at its next
// read, on its reading thread behind the read deadline (VerbsDeviceSet::RefreshIfRequested), and
// Sync() takes what it found. Every change of the device set asks for a snapshot too.
//
// Threading: the event-loop thread. Lifetime: `loop` and `devices` must outlive this; the
// destructor unwatches every fd and cancels the rescan timer.

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "core/event_loop.h"
#include "verbs/verbs_device_set.h"

namespace rocewatch {

class VerbsEventWatcher {
 public:
  using SnapshotRequest = std::function<void(std::string_view reason)>;

  VerbsEventWatcher(EventLoop& loop, VerbsDeviceSet& devices, SnapshotRequest request_snapshot,
                    Duration rescan_interval);
  ~VerbsEventWatcher();
  VerbsEventWatcher(const VerbsEventWatcher&) = delete;
  VerbsEventWatcher& operator=(const VerbsEventWatcher&) = delete;

  // Watches the fds of the devices open now and schedules the periodic re-enumeration.
  void Start();

  // Asks for a re-enumeration at the GID reader's next read (also what the timer does).
  void Rescan() { devices_.RequestRefresh(); }
  // Logs the re-enumerations made since, watches the fds of devices opened since (by a
  // re-enumeration or a GID read), unwatches closed ones, and asks for a snapshot if the device
  // set changed. Cheap: call it after every snapshot.
  void Sync();

  uint64_t events_read() const { return events_read_; }
  uint64_t devices_lost() const { return devices_lost_; }
  // Device name -> watched fd.
  const std::map<std::string, int>& watched() const { return watched_; }

 private:
  void OnReadable(const std::string& device, short revents);
  void SyncWatchedFds();
  void ScheduleRescan();

  EventLoop& loop_;
  VerbsDeviceSet& devices_;
  SnapshotRequest request_snapshot_;
  Duration rescan_interval_;
  std::map<std::string, int> watched_;
  EventLoop::TimerId rescan_timer_ = 0;
  uint64_t events_read_ = 0;
  uint64_t devices_lost_ = 0;
};

}  // namespace rocewatch
