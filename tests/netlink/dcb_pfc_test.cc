#include "netlink/dcb_pfc.h"

#include <gtest/gtest.h>
#include <linux/dcbnl.h>

#include <cstring>
#include <vector>

namespace rocewatch {
namespace {

// One netlink attribute: header, payload, padding to 4 bytes.
std::vector<uint8_t> Attr(uint16_t type, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> out(4);
  const uint16_t length = static_cast<uint16_t>(4 + payload.size());
  std::memcpy(out.data(), &length, 2);
  std::memcpy(out.data() + 2, &type, 2);
  out.insert(out.end(), payload.begin(), payload.end());
  while (out.size() % 4) out.push_back(0);
  return out;
}

std::vector<uint8_t> Cat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

std::vector<uint8_t> PfcPayload(uint8_t cap, uint8_t enabled) {
  ieee_pfc pfc{};
  pfc.pfc_cap = cap;
  pfc.pfc_en = enabled;
  std::vector<uint8_t> out(sizeof(pfc));
  std::memcpy(out.data(), &pfc, sizeof(pfc));
  return out;
}

// What the kernel's dcbnl_ieee_fill sends for an mlx5 port with PFC on priority 3.
TEST(DcbPfcTest, ReadsThePfcOfAnIeeeAnswer) {
  std::vector<uint8_t> answer =
      Cat({Attr(DCB_ATTR_IFNAME, {'e', 'n', 's', '1', 0}),
           Attr(DCB_ATTR_IEEE, Cat({Attr(DCB_ATTR_IEEE_ETS, std::vector<uint8_t>(59, 0)),
                                    Attr(DCB_ATTR_IEEE_PFC, PfcPayload(8, 0x08))})),
           Attr(DCB_ATTR_DCBX, {DCB_CAP_DCBX_VER_IEEE})});
  StatusOr<std::optional<HostPfc>> pfc = ParseDcbIeeeAnswer(answer);
  ASSERT_TRUE(pfc.ok()) << pfc.status().ToString();
  ASSERT_TRUE(pfc->has_value());
  EXPECT_EQ((*pfc)->enabled, 0x08);
  EXPECT_EQ((*pfc)->capability, 8);
}

TEST(DcbPfcTest, AnAnswerWithoutPfcIsNoPfcNotAnError) {
  EXPECT_FALSE(ParseDcbIeeeAnswer(Attr(DCB_ATTR_IFNAME, {'x', 0}))->has_value());
  EXPECT_FALSE(
      ParseDcbIeeeAnswer(Attr(DCB_ATTR_IEEE, Attr(DCB_ATTR_IEEE_ETS, {0, 0})))->has_value());
  EXPECT_FALSE(ParseDcbIeeeAnswer({})->has_value());
}

TEST(DcbPfcTest, AMalformedAnswerIsCorrupt) {
  StatusOr<std::optional<HostPfc>> shortpfc =
      ParseDcbIeeeAnswer(Attr(DCB_ATTR_IEEE, Attr(DCB_ATTR_IEEE_PFC, {8})));
  EXPECT_EQ(shortpfc.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(shortpfc.status().message(), "DCB answer: PFC attribute of 1 bytes");
  // A nested attribute whose length runs past its parent is not read: no PFC, never bytes
  // beyond the answer.
  std::vector<uint8_t> lying = Attr(DCB_ATTR_IEEE, {0xff, 0x00, DCB_ATTR_IEEE_PFC, 0x00});
  StatusOr<std::optional<HostPfc>> past = ParseDcbIeeeAnswer(lying);
  ASSERT_TRUE(past.ok()) << past.status().ToString();
  EXPECT_FALSE(past->has_value());
  EXPECT_EQ(ParseDcbIeeeAnswer(std::vector<uint8_t>(70 * 1024, 0)).status().code(),
            StatusCode::kCorrupt);
}

}  // namespace
}  // namespace rocewatch
