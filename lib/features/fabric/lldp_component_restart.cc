// The LLDP component across a restart of the daemon: each rail's last far end, provided on the
// node state for the state file and taken back from it at start (fabric/lldp_component.h).
#include <spdlog/spdlog.h>

#include <cmath>

#include "fabric/lldp_component.h"
#include "fabric/neighbor_labels.h"
#include "lldp/lldp_frame.h"

namespace rocewatch {

StateDeclaration LldpComponent::declaration() const {
  StateDeclaration declared;
  if (keep_incidents_) {
    declared.provides = {StatePart::kFarEnds};
    declared.reads = {StatePart::kRestoredIncidents};
  }
  return declared;
}

Status LldpComponent::Start(MonitorContext& ctx) {
  if (!keep_incidents_) return Status::Ok();
  const std::optional<RestoredIncidents>* restored = ctx.state().restored_incidents();
  if (restored != nullptr && *restored && !(*restored)->incidents.far_ends.empty()) {
    std::map<std::string, KeptFarEnd> far_ends;
    for (const auto& [netdev, far_end] : (*restored)->incidents.far_ends)
      far_ends[netdev] = {far_end.frame, MonoTimeAt(ctx.clock(), far_end.last_seen)};
    RestoreFarEnds(std::move(far_ends));
  }
  ProvideFarEnds(ctx);
  return Status::Ok();
}

void LldpComponent::ProvideFarEnds(MonitorContext& ctx) {
  std::map<std::string, PersistedFarEnd> far_ends;
  for (auto& [netdev, far_end] : ExportFarEnds())
    far_ends[netdev] = {std::move(far_end.frame),
                        std::round(UnixSecondsAt(ctx.clock(), far_end.last_seen))};
  (void)ctx.state_writer().SetFarEnds(std::move(far_ends));
}

std::map<std::string, LldpComponent::KeptFarEnd> LldpComponent::ExportFarEnds() const {
  std::map<std::string, KeptFarEnd> out;
  for (const auto& [netdev, last] : last_far_end_) out[netdev] = last.kept;
  // The current neighbor's last frame is newer than the one it was reported with.
  for (const auto& [netdev, neighbor] : table_.neighbors())
    if (auto it = out.find(netdev); it != out.end() && it->second.frame == neighbor.bytes)
      it->second.last_seen = neighbor.last_seen;
  // Far ends restored and not applied yet (a stop before the first snapshot) are kept as they were.
  if (restored_far_ends_) out.insert(restored_far_ends_->begin(), restored_far_ends_->end());
  return out;
}

void LldpComponent::RestoreFarEnds(std::map<std::string, KeptFarEnd> far_ends) {
  restored_far_ends_ = std::move(far_ends);
}

void LldpComponent::ApplyRestoredFarEnds(MonitorContext& ctx) {
  std::map<std::string, KeptFarEnd> far_ends = std::move(*restored_far_ends_);
  restored_far_ends_.reset();
  const MonoTime now = ctx.clock().Now();
  for (auto& [netdev, kept] : far_ends) {
    StatusOr<LldpFrame> frame = ParseLldpFrame(kept.frame);
    if (!frame.ok()) {
      spdlog::warn("state file: the far end kept for {} does not parse ({}): not restored", netdev,
                   frame.status().message());
      continue;
    }
    if (!rails_.count(netdev)) {
      ctx.RecordEvent(netdev + ": LLDP neighbor " + DescribeFarEnd(*frame) +
                          " from before the restart dropped: the netdev is no longer a RoCE rail",
                      Severity::kInfo);
      continue;
    }
    // A frame that arrived since the start wins over what the file kept.
    if (table_.neighbor(netdev) != nullptr || last_far_end_.count(netdev)) continue;
    const long ago = std::lround(ToSeconds(now - kept.last_seen));
    if (table_.Restore(netdev, kept.frame, kept.last_seen, now)) {
      reported_[netdev] = *frame;
      mtus_[netdev] = read_mtu_ ? read_mtu_(netdev) : std::nullopt;
      ctx.RecordEvent(netdev + ": LLDP neighbor " + DescribeFarEnd(*frame) +
                          " restored from the state file (last frame " + std::to_string(ago) +
                          " s ago, within its TTL)",
                      Severity::kInfo);
    }
    last_far_end_[netdev] = {std::move(frame).value(), std::move(kept)};
  }
  cached_findings_.reset();
  ctx.RequestPublish();
}

}  // namespace rocewatch
