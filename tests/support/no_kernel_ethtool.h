#pragma once
// Ethtool kernel sources that know no netdev: with them, the ethtool poller's only input is the
// recordings under the host root (a support bundle, or a test writing them between polls).

#include <memory>
#include <optional>
#include <string>

#include "ethtool/ethtool_sources.h"

namespace rocewatch {

class NoKernelEthtool final : public DriverStatisticsSource, public EthtoolNetlinkSource {
 public:
  StatusOr<std::optional<DriverStatistics>> ReadDriverStatistics(const std::string&) override {
    return Status::NotFound("no such netdev");
  }
  StatusOr<std::optional<EthtoolAnswer>> Read(const std::string&, EthtoolRequest) override {
    return Gone();
  }
  StatusOr<std::optional<std::string>> ReadModulePage(const std::string&,
                                                      const ModulePageAddress&) override {
    return Gone();
  }

 private:
  static Status Gone() { return Status::NotFound("no such netdev"); }
};

// Sources for EthtoolComponent that read recordings only.
inline EthtoolSources NoKernelEthtoolSources() {
  EthtoolSources sources;
  sources.statistics = std::make_unique<NoKernelEthtool>();
  sources.netlink = std::make_unique<NoKernelEthtool>();
  return sources;
}

}  // namespace rocewatch
