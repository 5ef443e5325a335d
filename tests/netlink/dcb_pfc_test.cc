#include "netlink/dcb_pfc.h"

#include <gtest/gtest.h>
#include <linux/dcbnl.h>

#include <vector>

#include "support/dcb_answers.h"

namespace rocewatch {
namespace {

// What the kernel's dcbnl_ieee_fill sends for an mlx5 port with PFC on priority 3.
TEST(DcbPfcTest, ReadsThePfcOfAnIeeeAnswer) {
  std::vector<uint8_t> answer =
      Concat({NetlinkAttr(DCB_ATTR_IFNAME, {'e', 'n', 's', '1', 0}),
              NetlinkAttr(DCB_ATTR_IEEE,
                          Concat({NetlinkAttr(DCB_ATTR_IEEE_ETS, std::vector<uint8_t>(59, 0)),
                                  NetlinkAttr(DCB_ATTR_IEEE_PFC, IeeePfcPayload(8, 0x08))})),
              NetlinkAttr(DCB_ATTR_DCBX, {DCB_CAP_DCBX_VER_IEEE})});
  StatusOr<std::optional<HostPfc>> pfc = ParseDcbIeeeAnswer(answer);
  ASSERT_TRUE(pfc.ok()) << pfc.status().ToString();
  ASSERT_TRUE(pfc->has_value());
  EXPECT_EQ((*pfc)->enabled, 0x08);
  EXPECT_EQ((*pfc)->capability, 8);
}

TEST(DcbPfcTest, AnAnswerWithoutPfcIsNoPfcNotAnError) {
  EXPECT_FALSE(ParseDcbIeeeAnswer(NetlinkAttr(DCB_ATTR_IFNAME, {'x', 0}))->has_value());
  EXPECT_FALSE(
      ParseDcbIeeeAnswer(NetlinkAttr(DCB_ATTR_IEEE, NetlinkAttr(DCB_ATTR_IEEE_ETS, {0, 0})))
          ->has_value());
  EXPECT_FALSE(ParseDcbIeeeAnswer({})->has_value());
}

TEST(DcbPfcTest, AMalformedAnswerIsCorrupt) {
  StatusOr<std::optional<HostPfc>> shortpfc =
      ParseDcbIeeeAnswer(NetlinkAttr(DCB_ATTR_IEEE, NetlinkAttr(DCB_ATTR_IEEE_PFC, {8})));
  EXPECT_EQ(shortpfc.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(shortpfc.status().message(), "DCB answer: PFC attribute of 1 bytes");
  // A nested attribute whose length runs past its parent is not read: no PFC, never bytes
  // beyond the answer.
  std::vector<uint8_t> lying = NetlinkAttr(DCB_ATTR_IEEE, {0xff, 0x00, DCB_ATTR_IEEE_PFC, 0x00});
  StatusOr<std::optional<HostPfc>> past = ParseDcbIeeeAnswer(lying);
  ASSERT_TRUE(past.ok()) << past.status().ToString();
  EXPECT_FALSE(past->has_value());
  EXPECT_EQ(ParseDcbIeeeAnswer(std::vector<uint8_t>(70 * 1024, 0)).status().code(),
            StatusCode::kCorrupt);
}

}  // namespace
}  // namespace rocewatch
