#include "diagnose/configuration_checks.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "diagnose/check_groups.h"

namespace rocewatch {

bool IsGlobalIpv6(const IpAddress& address) {
  if (address.family != AddressFamily::kIpv6 || address.link_local) return false;
  std::optional<std::string> gid = GidOfAddress(address.address);
  if (!gid) return false;
  return !IsLinkLocalGid(*gid) && *gid != "0000:0000:0000:0000:0000:0000:0000:0001" &&
         !IsZeroGid(*gid);
}

std::optional<Duration> NcclSurvivableOutage(long long timeout, long long retry_count) {
  if (timeout <= 0) return std::nullopt;
  double seconds = 4.096e-6 * std::ldexp(1.0, static_cast<int>(std::min(timeout, 31LL))) *
                   static_cast<double>(std::max(retry_count, 0LL));
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(seconds));
}

std::vector<Finding> RunConfigurationChecks(const ConfigurationCheckInput& input) {
  std::vector<Finding> findings;
  if (input.snapshot == nullptr) return findings;
  CheckAddressKeeping(input, findings);
  CheckConfiguredAddresses(input, findings);
  CheckNcclSettings(input, findings);
  CheckGidLayout(input, findings);
  CheckCounters(input, findings);
  return findings;
}

}  // namespace rocewatch
