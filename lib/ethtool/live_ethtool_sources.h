#pragma once
// The kernel's ethtool interfaces of the calling thread's network namespace, opened together for
// a one-shot command (diagnose, collect). A source that cannot be opened is null: recordings still
// answer, and the report says what the driver answered.

#include "ethtool/ioctl_driver_statistics_source.h"
#include "ethtool/libnl_ethtool_source.h"

namespace rocewatch {

class LiveEthtoolSources {
 public:
  LiveEthtoolSources();
  LiveEthtoolSources(const LiveEthtoolSources&) = delete;
  LiveEthtoolSources& operator=(const LiveEthtoolSources&) = delete;

  DriverStatisticsSource* statistics() { return have_statistics_ ? &statistics_ : nullptr; }
  EthtoolNetlinkSource* netlink() { return have_netlink_ ? &netlink_ : nullptr; }

 private:
  IoctlDriverStatisticsSource statistics_;
  LibnlEthtoolSource netlink_;
  bool have_statistics_;
  bool have_netlink_;
};

}  // namespace rocewatch
