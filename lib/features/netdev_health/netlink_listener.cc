#include "netdev_health/netlink_listener.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace rocewatch {
namespace {

constexpr auto kRetryDelay = std::chrono::seconds(1);
// Bounds the drain after an overrun: a namespace changing faster than we read still gets dumped.
constexpr int kMaxDrainReads = 64;

}  // namespace

NetlinkListener::NetlinkListener(RtnetlinkSource& source, const Clock& clock,
                                 std::set<std::string> rnic_netdevs, NetdevHealthConfig config)
    : source_(source), clock_(clock), tracker_(std::move(rnic_netdevs)), health_(config) {}

NetlinkListener::~NetlinkListener() { Stop(); }

Status NetlinkListener::Start(EventLoop& loop) {
  loop_ = &loop;
  if (source_.fd() < 0) {
    Status s = source_.Open();
    if (!s.ok()) return s;
  }
  auto dump = source_.Dump();
  if (!dump.ok()) return dump.status();
  std::vector<NetdevChange> changes;
  tracker_.Resync(*dump, changes);
  Deliver(changes);
  loop.WatchFd(source_.fd(), [this](short) { OnReadable(); });
  return Status::Ok();
}

void NetlinkListener::Stop() {
  if (loop_ == nullptr) return;
  if (source_.fd() >= 0) loop_->UnwatchFd(source_.fd());
  if (deadline_timer_) loop_->Cancel(*deadline_timer_);
  if (retry_timer_) loop_->Cancel(*retry_timer_);
  deadline_timer_.reset();
  retry_timer_.reset();
  source_.Close();
  loop_ = nullptr;
}

void NetlinkListener::SetRnicNetdevs(std::set<std::string> names) {
  if (names == tracker_.rnic_netdevs()) return;
  const std::set<std::string>& known = tracker_.rnic_netdevs();
  const bool added = !std::includes(known.begin(), known.end(), names.begin(), names.end());
  std::vector<NetdevChange> changes;
  tracker_.SetRnicNetdevs(std::move(names), clock_.Now(), changes);
  Deliver(changes);
  if (!added || loop_ == nullptr) return;
  // What is queued first, as events (a flap in it is a flap), then the dump that the queue's rest
  // is older than.
  OnReadable();
  Resync(RedumpReason::kNewRnicNetdevs);
}

void NetlinkListener::OnReadable() {
  std::vector<NetlinkMessage> messages;
  auto result = source_.ReadPending(messages);
  messages_ += messages.size();
  std::vector<NetdevChange> changes;
  for (const NetlinkMessage& m : messages) tracker_.Apply(m, changes);
  Deliver(changes);
  if (!result.ok()) {
    ++errors_;
    spdlog::warn("netlink: {}", result.status().ToString());
    return;
  }
  if (*result == RtnetlinkSource::ReadResult::kOverrun) Resync();
}

void NetlinkListener::Resync(RedumpReason reason) {
  // What is still queued is older than the dump we are about to take: discard it.
  std::vector<NetlinkMessage> discarded;
  for (int i = 0; i < kMaxDrainReads; ++i) {
    discarded.clear();
    auto drained = source_.ReadPending(discarded);
    if (!drained.ok() || *drained == RtnetlinkSource::ReadResult::kDrained) break;
  }
  auto dump = source_.Dump();
  if (!dump.ok()) {
    ++errors_;
    spdlog::warn("netlink: re-dump {} failed ({}); retrying in {}s",
                 reason == RedumpReason::kOverrun ? "after an overrun" : "for new RNIC netdevs",
                 dump.status().ToString(), kRetryDelay.count());
    if (loop_ != nullptr && !retry_timer_)
      retry_timer_ = loop_->ScheduleAfter(kRetryDelay, [this, reason] {
        retry_timer_.reset();
        Resync(reason);
      });
    return;
  }
  std::vector<NetdevChange> changes;
  tracker_.Resync(*dump, changes);
  if (reason == RedumpReason::kOverrun) {
    ++resyncs_;
    spdlog::info("netlink: receive overrun; re-dumped {} links, {} changes recovered",
                 dump->links.size(), changes.size());
  } else {
    spdlog::debug("netlink: new RNIC netdevs; re-dumped {} links and {} routes", dump->links.size(),
                  dump->routes.size());
  }
  Deliver(changes);
}

void NetlinkListener::Deliver(std::vector<NetdevChange>& changes) {
  std::vector<NetdevNarration> narration;
  health_.OnChanges(changes, &narration);
  health_.Evaluate(routing_view(), clock_.Now());
  if (!changes.empty() && on_changes_) on_changes_(changes, narration);
  ScheduleDeadline();
}

NetdevRestoreOutcome NetlinkListener::RestoreIncidents(
    const std::map<std::string, NetdevIncidents>& saved) {
  NetdevRestoreOutcome outcome = health_.RestoreIncidents(saved, routing_view(), clock_.Now());
  ScheduleDeadline();
  return outcome;
}

void NetlinkListener::Evaluate() {
  health_.Evaluate(routing_view(), clock_.Now());
  if (on_changes_) on_changes_({}, {});
  ScheduleDeadline();
}

void NetlinkListener::ScheduleDeadline() {
  if (loop_ == nullptr) return;
  if (deadline_timer_) loop_->Cancel(*deadline_timer_);
  deadline_timer_.reset();
  std::optional<MonoTime> next = health_.NextDeadline(clock_.Now());
  if (!next) return;
  deadline_timer_ = loop_->ScheduleAt(*next, [this] {
    deadline_timer_.reset();
    Evaluate();
  });
}

RoutingView NetlinkListener::routing_view() const {
  RoutingView view;
  view.netdevs = tracker_.RnicStates();
  view.rules = tracker_.rules();
  for (const auto& [name, state] : view.netdevs) view.routes[name] = tracker_.RoutesOf(name);
  return view;
}

}  // namespace rocewatch
