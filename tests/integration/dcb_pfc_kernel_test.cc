// DCB netlink for real, against this kernel: a netdev whose driver has no DCB (lo here, a veth
// in the tests of the rail's far end) answers "no DCB", not an error; a netdev that does not exist
// is NotFound. (An RNIC's answer with PFC is tested on recorded bytes: tests/netlink.)
#include <gtest/gtest.h>

#include "netlink/dcb_pfc.h"

namespace rocewatch {
namespace {

TEST(DcbPfcKernelTest, LoHasNoDcbAndAMissingNetdevIsNotFound) {
  LibnlDcbSource source;
  ASSERT_TRUE(source.Open().ok());
  StatusOr<std::optional<std::vector<uint8_t>>> lo = source.ReadIeeeAnswer("lo");
  ASSERT_TRUE(lo.ok()) << lo.status().ToString();
  EXPECT_FALSE(lo->has_value());
  StatusOr<std::optional<std::vector<uint8_t>>> missing = source.ReadIeeeAnswer("rw-no-such0");
  if (missing.ok())
    GTEST_SKIP() << "this kernel has no DCB netlink (CONFIG_DCB): every answer is EOPNOTSUPP";
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound) << missing.status().ToString();
  // The reader of HostEnv, as the daemon reads PFC through it: the same answers, the socket
  // opened once.
  HostPfcReader reader = HostPfcFromAnswers(LibnlDcbAnswerReader());
  EXPECT_FALSE(reader("lo")->has_value());
  EXPECT_EQ(reader("rw-no-such0").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace rocewatch
