#include "ethtool/ethtool_poller.h"

#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"

namespace rocewatch {
namespace {

// Stores one request's answer in `slot`, its outcome in `netdev`. Returns false when the netdev
// is gone (the other requests are not worth asking).
template <typename T>
bool Take(NetdevEthtool& netdev, const char* request, StatusOr<std::optional<T>> answer,
          std::optional<T>& slot) {
  if (answer.ok()) {
    slot = std::move(*answer);
    netdev.outcomes[request] = slot ? RequestOutcome::kAnswered : RequestOutcome::kUnsupported;
    return true;
  }
  if (answer.status().code() == StatusCode::kNotFound) {
    netdev.present = false;
    return false;
  }
  netdev.outcomes[request] = RequestOutcome::kFailed;
  netdev.errors.push_back(std::string(request) + ": " + answer.status().message());
  return true;
}

}  // namespace

const char* RequestOutcomeLabel(RequestOutcome outcome) {
  switch (outcome) {
    case RequestOutcome::kNotAsked:
      return "not_asked";
    case RequestOutcome::kAnswered:
      return "answered";
    case RequestOutcome::kUnsupported:
      return "unsupported";
    case RequestOutcome::kFailed:
      return "failed";
  }
  return "failed";
}

EthtoolPoller::EthtoolPoller(const FileSystem& fs, std::string host_root, std::string sysfs_root,
                             DriverStatisticsSource* live_statistics,
                             EthtoolNetlinkSource* live_netlink)
    : fs_(fs),
      sysfs_root_(std::move(sysfs_root)),
      recorded_(fs, EthtoolRecordingsDir(host_root)),
      live_statistics_(live_statistics),
      live_netlink_(live_netlink) {}

EthtoolNetlinkSource* EthtoolPoller::NetlinkFor(const std::string& netdev) {
  if (recorded_.HasRecording(netdev)) return &recorded_;
  return live_netlink_;
}

std::map<std::string, NetdevEthtool> EthtoolPoller::Poll(const std::set<std::string>& netdevs) {
  std::map<std::string, NetdevEthtool> result;
  for (const std::string& name : netdevs) {
    NetdevEthtool& n = result[name];
    n.recorded = recorded_.HasRecording(name);
    DriverStatisticsSource* statistics = n.recorded ? &recorded_ : live_statistics_;
    EthtoolNetlinkSource* netlink = n.recorded ? &recorded_ : live_netlink_;
    if (StatusOr<std::string> speed =
            fs_.ReadFile(JoinPath(sysfs_root_, "class/net/" + name + "/speed"), 64);
        speed.ok()) {
      std::string text = *speed;
      while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
      if (std::optional<uint64_t> mbps = ParseUnsigned(text)) n.speed_mbps = *mbps;
    }
    bool present = true;
    if (statistics) {
      ++reads_;
      present = Take(n, "statistics", statistics->ReadDriverStatistics(name), n.driver);
      if (n.driver) n.interpreted = InterpretDriverCounters(n.driver->counters);
    }
    if (netlink && present) {
      reads_ += 4;
      present = Take(n, "fec", netlink->ReadFec(name), n.fec) &&
                Take(n, "link_state", netlink->ReadLinkState(name), n.link_state) &&
                Take(n, "pause", netlink->ReadPause(name), n.pause) &&
                Take(n, "standard_statistics", netlink->ReadStandardStatistics(name), n.standard);
    }
  }
  return result;
}

ModuleOutcome EthtoolPoller::PollModule(const std::string& netdev) {
  ModuleOutcome outcome;
  EthtoolNetlinkSource* netlink = NetlinkFor(netdev);
  if (!netlink) {
    outcome.unsupported = true;
    return outcome;
  }
  auto read = [&](const ModulePageAddress& address) -> bool {
    ++reads_;
    StatusOr<std::optional<std::string>> page = netlink->ReadModulePage(netdev, address);
    if (!page.ok()) {
      outcome.error = page.status().message();
      outcome.not_permitted = page.status().code() == StatusCode::kPermissionDenied;
      return false;
    }
    if (!*page) {
      outcome.unsupported = true;
      return false;
    }
    outcome.pages[address] = std::move(**page);
    return true;
  };
  if (!read(LowerPageAddress())) return outcome;
  // A module that flaps may fail an upper page: decode what was read, keep the error.
  for (const ModulePageAddress& address : UpperPagesFor(outcome.pages[LowerPageAddress()]))
    if (!read(address)) {
      outcome.unsupported = false;
      break;
    }
  StatusOr<ModuleReading> decoded = DecodeModule(outcome.pages);
  if (decoded.ok()) {
    outcome.module = std::move(*decoded);
  } else if (outcome.error.empty()) {
    outcome.error = decoded.status().message();
  }
  return outcome;
}

std::string EthtoolPoller::LinkDownReason(const std::string& netdev) {
  EthtoolNetlinkSource* netlink = NetlinkFor(netdev);
  if (!netlink) return "";
  ++reads_;
  StatusOr<std::optional<LinkStateReading>> state = netlink->ReadLinkState(netdev);
  if (!state.ok() || !*state) return "";
  return DescribeLinkExtState(**state);
}

}  // namespace rocewatch
