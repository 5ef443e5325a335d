// lib/model/gid.h on arbitrary text: GidOfAddress takes addresses from netlink and from users,
// Ipv4OfGid and the Is*Gid predicates take GIDs from sysfs and state files.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_check.h"
#include "model/gid.h"
#include "sysfs/sysfs_parsers.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = fuzz::AsText(data, size);

  std::optional<std::string> gid = GidOfAddress(text);
  if (gid) {
    StatusOr<std::string> parsed = ParseGid(*gid);  // the form sysfs prints
    FUZZ_CHECK(parsed.ok() && *parsed == *gid);
    std::optional<std::string> ipv4 = Ipv4OfGid(*gid);
    if (ipv4) {
      FUZZ_CHECK(IsIpv4MappedGid(*gid));
      FUZZ_CHECK(GidOfAddress(*ipv4) == gid);  // the address round-trips through its GID
    }
  }

  bool zero = IsZeroGid(text);
  bool link_local = IsLinkLocalGid(text);
  bool mapped = IsIpv4MappedGid(text);
  FUZZ_CHECK(!(zero && (link_local || mapped)));
  FUZZ_CHECK(!(link_local && mapped));
  std::optional<std::string> ipv4 = Ipv4OfGid(text);
  FUZZ_CHECK(ipv4.has_value() == mapped);
  if (ipv4) {
    std::optional<std::string> back = GidOfAddress(*ipv4);
    StatusOr<std::string> lower = ParseGid(text);
    FUZZ_CHECK(back && lower.ok() && *back == *lower);
  }
  return 0;
}
