#include "verbs/verbs_device_set.h"

#include <algorithm>
#include <set>
#include <utility>

namespace rocewatch {

void VerbsDeviceSet::RefreshIfRequested(const std::function<bool()>& still_wanted) {
  if (!refresh_requested_.exchange(false, std::memory_order_acq_rel)) return;
  RefreshResult result = Refresh(still_wanted);
  std::lock_guard<std::mutex> lock(results_mutex_);
  results_.push_back(std::move(result));
}

std::vector<VerbsDeviceSet::RefreshResult> VerbsDeviceSet::TakeRefreshResults() {
  std::lock_guard<std::mutex> lock(results_mutex_);
  return std::exchange(results_, {});
}

VerbsDeviceSet::RefreshResult VerbsDeviceSet::Refresh(const std::function<bool()>& still_wanted) {
  // The calls that reach the driver first (listing, opening), the set changed only after them.
  RefreshResult result;
  StatusOr<VerbsDeviceList> listed = api_.ListDevices();
  if (!listed.ok()) {
    result.list_status = listed.status();
    if (open_.empty()) absent_reason_ = listed.status().ToString();
    return result;
  }
  std::set<std::string> wanted(listed->names.begin(), listed->names.end());
  std::vector<std::pair<std::string, std::unique_ptr<VerbsDevice>>> opened;
  for (const std::string& name : wanted) {
    if (open_.count(name) != 0) continue;
    StatusOr<std::unique_ptr<VerbsDevice>> device = api_.OpenDevice(name);
    if (!device.ok()) {
      result.failed.emplace_back(name, device.status());
      continue;
    }
    opened.emplace_back(name, std::move(device).value());
  }
  if (still_wanted && !still_wanted()) {
    // Given up on while listing or opening: the set is someone else's now; what was opened is
    // closed here, unused, and the re-enumeration is left to the next reader.
    refresh_requested_.store(true, std::memory_order_release);
    result.failed.clear();
    return result;
  }
  for (auto it = open_.begin(); it != open_.end();) {
    if (wanted.count(it->first) != 0) {
      ++it;
      continue;
    }
    result.closed.push_back(it->first);
    it = open_.erase(it);
  }
  for (auto& [name, device] : opened) {
    open_[name].device = std::move(device);
    backoff_.erase(name);
    result.opened.push_back(name);
  }
  if (!open_.empty()) {
    absent_reason_.clear();
  } else if (!listed->absent_reason.empty()) {
    absent_reason_ = listed->absent_reason;
  } else {
    absent_reason_ = "no RDMA device could be opened";
    if (!result.failed.empty())
      absent_reason_ += " (" + result.failed.front().second.ToString() + ")";
  }
  return result;
}

std::vector<std::string> VerbsDeviceSet::names() const {
  std::vector<std::string> out;
  out.reserve(open_.size());
  for (const auto& [name, entry] : open_) out.push_back(name);
  return out;
}

VerbsDeviceSet::Entry* VerbsDeviceSet::Find(const std::string& name) {
  auto it = open_.find(name);
  return it == open_.end() ? nullptr : &it->second;
}

StatusOr<VerbsDeviceSet::Entry*> VerbsDeviceSet::FindOrOpen(const std::string& name) {
  if (Entry* entry = Find(name)) return entry;
  Backoff& backoff = backoff_[name];
  if (backoff.skip > 0) {
    --backoff.skip;
    return Status::Unavailable(name + " cannot be opened through verbs (" +
                               backoff.last.ToString() + "); retrying later");
  }
  StatusOr<std::unique_ptr<VerbsDevice>> device = api_.OpenDevice(name);
  if (!device.ok()) {
    backoff.last = device.status();
    backoff.skip = backoff.next;
    backoff.next = std::min(backoff.next * 2, kMaxOpenBackoff);
    return device.status();
  }
  backoff_.erase(name);
  Entry& entry = open_[name];
  entry.device = std::move(device).value();
  absent_reason_.clear();
  return &entry;
}

void VerbsDeviceSet::Close(const std::string& name) {
  open_.erase(name);
  if (open_.empty()) absent_reason_ = "every RDMA device was closed (lost)";
}

VerbsDeviceSet::AsyncOutcome VerbsDeviceSet::DrainAsyncEvents(const std::string& name,
                                                              size_t max_events) {
  AsyncOutcome outcome;
  Entry* entry = Find(name);
  if (entry == nullptr) return outcome;
  while (outcome.events < max_events) {
    StatusOr<std::optional<VerbsAsyncEvent>> event = entry->device->ReadAsyncEvent();
    if (!event.ok()) {
      outcome.device_lost = true;
      outcome.lost_reason = event.status().ToString();
      break;
    }
    if (!event->has_value()) break;
    ++outcome.events;
    const VerbsAsyncEvent& e = **event;
    if (e.kind == VerbsAsyncEventKind::kDeviceFatal) {
      outcome.device_lost = true;
      outcome.lost_reason = "IBV_EVENT_DEVICE_FATAL";
      break;
    }
    if (e.kind == VerbsAsyncEventKind::kOther) continue;
    outcome.snapshot_reasons.push_back(std::string("verbs ") + VerbsAsyncEventKindName(e.kind) +
                                       " " + name + "/" + std::to_string(e.port));
  }
  if (outcome.device_lost) Close(name);
  return outcome;
}

}  // namespace rocewatch
