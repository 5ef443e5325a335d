#include "nccl/nccl_environment.h"

#include <gtest/gtest.h>

#include "support/bytes.h"

namespace rocewatch {
namespace {

using Vars = std::map<std::string, std::string>;

TEST(ParseEnvironBlock, KeepsOnlyPrefixedVariables) {
  EXPECT_EQ(
      ParseEnvironBlock(Bytes("PATH=/usr/bin\0NCCL_IB_GID_INDEX=3\0NCCL_IB_HCA=mlx5\0"), "NCCL_"),
      (Vars{{"NCCL_IB_GID_INDEX", "3"}, {"NCCL_IB_HCA", "mlx5"}}));
}

TEST(ParseEnvironBlock, ToleratesMalformedAndBinaryBlocks) {
  struct Case {
    const char* name;
    std::string block;
    Vars expected;
  };
  const Case cases[] = {
      {"empty", "", {}},
      {"only NULs", Bytes("\0\0\0"), {}},
      {"no equals", Bytes("NCCL_IB_HCA\0"), {}},
      {"empty name", Bytes("=3\0"), {}},
      {"empty value", Bytes("NCCL_IB_HCA=\0"), {{"NCCL_IB_HCA", ""}}},
      {"value with equals", Bytes("NCCL_X=a=b\0"), {{"NCCL_X", "a=b"}}},
      {"first definition wins", Bytes("NCCL_X=1\0NCCL_X=2\0"), {{"NCCL_X", "1"}}},
      {"truncated last entry", Bytes("NCCL_X=1\0NCCL_Y=2"), {{"NCCL_X", "1"}, {"NCCL_Y", "2"}}},
      {"truncated name", Bytes("NCCL_X=1\0NCCL_Y"), {{"NCCL_X", "1"}}},
      {"binary", Bytes("\xff\xfe=\x01\0NCCL_X=\x80\x81\0"), {{"NCCL_X", "\x80\x81"}}},
      {"prefix inside a name", Bytes("XNCCL_X=1\0"), {}},
  };
  for (const Case& c : cases) EXPECT_EQ(ParseEnvironBlock(c.block, "NCCL_"), c.expected) << c.name;
}

TEST(ParseEnvironBlock, HugeBlocksParseInOnePass) {
  std::string block;
  for (int i = 0; i < 200000; ++i)
    block += "VAR" + std::to_string(i) + "=" + std::string(10, 'x') + '\0';
  block += "NCCL_IB_TIMEOUT=22";
  block += '\0';
  EXPECT_GT(block.size(), 3u * 1024 * 1024);
  EXPECT_EQ(ParseEnvironBlock(block, "NCCL_"), (Vars{{"NCCL_IB_TIMEOUT", "22"}}));
}

TEST(ParseNcclIbHca, ReadsPrefixExactExcludeAndPorts) {
  NcclHcaSpec prefix = ParseNcclIbHca("mlx5");
  EXPECT_FALSE(prefix.exclude);
  EXPECT_FALSE(prefix.exact);
  EXPECT_TRUE(prefix.Selects("mlx5_10", 1));
  EXPECT_FALSE(prefix.Selects("bnxt_re0", 1));

  NcclHcaSpec exact = ParseNcclIbHca("=mlx5_0:1,mlx5_1");
  EXPECT_TRUE(exact.exact);
  EXPECT_EQ(exact.entries, (std::vector<NcclHcaEntry>{{"mlx5_0", 1}, {"mlx5_1", std::nullopt}}));
  EXPECT_TRUE(exact.Selects("mlx5_0", 1));
  EXPECT_FALSE(exact.Selects("mlx5_0", 2));
  EXPECT_FALSE(exact.Selects("mlx5_10", 1));

  NcclHcaSpec exclude = ParseNcclIbHca("^=mlx5_2");
  EXPECT_TRUE(exclude.exclude);
  EXPECT_TRUE(exclude.exact);
  EXPECT_FALSE(exclude.Selects("mlx5_2", 1));
  EXPECT_TRUE(exclude.Selects("mlx5_3", 1));
}

TEST(ParseNcclIbHca, MalformedEntriesDoNotCrash) {
  for (const char* text :
       {"", "^", "=", "^=", ",,,", ":1", "mlx5_0:x", "mlx5_0:99999", "mlx5_0:-1", "\xff\xfe"}) {
    NcclHcaSpec spec = ParseNcclIbHca(text);
    for (const NcclHcaEntry& e : spec.entries) EXPECT_FALSE(e.device.empty()) << text;
  }
  EXPECT_EQ(ParseNcclIbHca("mlx5_0:x").entries,
            (std::vector<NcclHcaEntry>{{"mlx5_0", std::nullopt}}));
}

TEST(InterpretNcclSettings, ReadsValuesAndDefaults) {
  NcclSettings s = InterpretNcclSettings({{"NCCL_IB_GID_INDEX", "3"},
                                          {"NCCL_IB_ADDR_FAMILY", "AF_INET6"},
                                          {"NCCL_IB_TIMEOUT", "22"},
                                          {"NCCL_IB_HCA", "=mlx5_0"}});
  EXPECT_EQ(s.gid_index, 3);
  EXPECT_EQ(s.address_family, NcclAddressFamily::kIpv6);
  EXPECT_EQ(s.timeout, 22);
  EXPECT_EQ(s.retry_count, std::nullopt);
  EXPECT_EQ(s.roce_version, 2);
  ASSERT_TRUE(s.hca.has_value());
  EXPECT_TRUE(s.hca->exact);
  EXPECT_TRUE(s.invalid.empty());
}

TEST(InterpretNcclSettings, InvalidValuesAreListedAndIgnoredAsNcclDoes) {
  NcclSettings s = InterpretNcclSettings({{"NCCL_IB_GID_INDEX", "three"},
                                          {"NCCL_IB_TIMEOUT", "32"},
                                          {"NCCL_IB_RETRY_CNT", "8"},
                                          {"NCCL_IB_ROCE_VERSION_NUM", "3"},
                                          {"NCCL_IB_ADDR_FAMILY", "INET"}});
  EXPECT_EQ(s.gid_index, std::nullopt);
  EXPECT_EQ(s.timeout, std::nullopt);
  EXPECT_EQ(s.retry_count, std::nullopt);
  EXPECT_EQ(s.roce_version, 2);
  EXPECT_EQ(s.address_family, NcclAddressFamily::kIpv4);
  EXPECT_EQ(s.invalid.size(), 5u);
}

}  // namespace
}  // namespace rocewatch
