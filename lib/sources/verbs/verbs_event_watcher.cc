#include "verbs/verbs_event_watcher.h"

#include <spdlog/spdlog.h>

namespace rocewatch {

VerbsEventWatcher::VerbsEventWatcher(EventLoop& loop, VerbsDeviceSet& devices,
                                     SnapshotRequest request_snapshot, Duration rescan_interval)
    : loop_(loop),
      devices_(devices),
      request_snapshot_(std::move(request_snapshot)),
      rescan_interval_(rescan_interval) {}

VerbsEventWatcher::~VerbsEventWatcher() {
  for (const auto& [name, fd] : watched_) loop_.UnwatchFd(fd);
  if (rescan_timer_ != 0) loop_.Cancel(rescan_timer_);
}

void VerbsEventWatcher::Start() {
  SyncWatchedFds();
  ScheduleRescan();
}

void VerbsEventWatcher::ScheduleRescan() {
  if (rescan_interval_ <= Duration::zero()) return;
  rescan_timer_ = loop_.ScheduleAfter(rescan_interval_, [this] {
    rescan_timer_ = 0;
    Rescan();
    ScheduleRescan();
  });
}

void VerbsEventWatcher::Sync() {
  bool changed = false;
  for (const VerbsDeviceSet::RefreshResult& result : devices_.TakeRefreshResults()) {
    if (!result.list_status.ok())
      spdlog::warn("verbs: enumerating RDMA devices failed: {}", result.list_status.ToString());
    for (const auto& [name, status] : result.failed)
      spdlog::warn("verbs: cannot open {}: {}", name, status.ToString());
    for (const std::string& name : result.opened) spdlog::info("verbs: opened {}", name);
    for (const std::string& name : result.closed) spdlog::info("verbs: {} is gone, closed", name);
    changed = changed || result.changed();
  }
  SyncWatchedFds();
  if (changed) request_snapshot_("verbs device set changed");
}

void VerbsEventWatcher::SyncWatchedFds() {
  // Unwatch first: a closed device's fd number may be reused by a device opened since.
  for (auto it = watched_.begin(); it != watched_.end();) {
    VerbsDeviceSet::Entry* entry = devices_.Find(it->first);
    if (entry != nullptr && entry->device->async_fd() == it->second) {
      ++it;
      continue;
    }
    loop_.UnwatchFd(it->second);
    it = watched_.erase(it);
  }
  for (const std::string& name : devices_.names()) {
    if (watched_.count(name) != 0) continue;
    int fd = devices_.Find(name)->device->async_fd();
    if (fd < 0) continue;
    watched_[name] = fd;
    loop_.WatchFd(fd, [this, name](short revents) { OnReadable(name, revents); });
  }
}

void VerbsEventWatcher::OnReadable(const std::string& device, short revents) {
  VerbsDeviceSet::AsyncOutcome outcome = devices_.DrainAsyncEvents(device);
  events_read_ += outcome.events;
  if (!outcome.device_lost && outcome.events == 0 && (revents & (POLLERR | POLLHUP | POLLNVAL))) {
    outcome.device_lost = true;
    outcome.lost_reason = "async fd hangup";
    devices_.Close(device);
  }
  for (const std::string& reason : outcome.snapshot_reasons) request_snapshot_(reason);
  if (!outcome.device_lost) return;
  ++devices_lost_;
  spdlog::warn("verbs: lost {} ({}); closed it, re-enumerating", device, outcome.lost_reason);
  SyncWatchedFds();  // before a re-enumeration opens anything that could reuse the fd number
  Rescan();
  request_snapshot_("verbs device lost " + device);
}

}  // namespace rocewatch
