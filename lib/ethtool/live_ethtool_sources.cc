#include "ethtool/live_ethtool_sources.h"

namespace rocewatch {

LiveEthtoolSources::LiveEthtoolSources()
    : have_statistics_(statistics_.Open().ok()), have_netlink_(netlink_.Open().ok()) {}

}  // namespace rocewatch
