#include "support/dcb_answers.h"

#include <linux/dcbnl.h>

#include <cstring>

namespace rocewatch {

std::vector<uint8_t> NetlinkAttr(uint16_t type, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> out(4);
  const uint16_t length = static_cast<uint16_t>(4 + payload.size());
  std::memcpy(out.data(), &length, 2);
  std::memcpy(out.data() + 2, &type, 2);
  out.insert(out.end(), payload.begin(), payload.end());
  while (out.size() % 4) out.push_back(0);
  return out;
}

std::vector<uint8_t> Concat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

std::vector<uint8_t> IeeePfcPayload(uint8_t capability, uint8_t enabled) {
  ieee_pfc pfc{};
  pfc.pfc_cap = capability;
  pfc.pfc_en = enabled;
  std::vector<uint8_t> out(sizeof(pfc));
  std::memcpy(out.data(), &pfc, sizeof(pfc));
  return out;
}

std::vector<uint8_t> DcbIeeeAnswer(uint8_t enabled, uint8_t capability) {
  return Concat(
      {NetlinkAttr(DCB_ATTR_IFNAME, {'e', 'n', 's', '1', 0}),
       NetlinkAttr(DCB_ATTR_IEEE,
                   Concat({NetlinkAttr(DCB_ATTR_IEEE_ETS, std::vector<uint8_t>(59, 0)),
                           NetlinkAttr(DCB_ATTR_IEEE_PFC, IeeePfcPayload(capability, enabled))})),
       NetlinkAttr(DCB_ATTR_DCBX, {DCB_CAP_DCBX_VER_IEEE})});
}

}  // namespace rocewatch
