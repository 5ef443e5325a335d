// The ethtool component's flags: rows of the run command's table, checked together after parsing.
#include "link_quality/ethtool_flags.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

namespace rocewatch {
namespace {

StatusOr<EthtoolOptions> ParseEthtoolArgs(std::vector<std::string> args) {
  CLI::App app;
  EthtoolOptions options;
  FlagTable flags;
  AddEthtoolFlags(flags, options);
  flags.AddTo(app);
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector
  app.parse(args);
  if (Status applied = flags.Apply(); !applied.ok()) return applied;
  if (Status finished = FinishEthtoolFlags(options); !finished.ok()) return finished;
  return options;
}

TEST(EthtoolFlagsTest, DefaultsAreTheComponentsAndEnableIt) {
  StatusOr<EthtoolOptions> options = ParseEthtoolArgs({});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  const EthtoolOptions defaults;
  EXPECT_TRUE(options->enabled);
  EXPECT_EQ(options->interval, defaults.interval);
  EXPECT_EQ(options->link_quality.degraded_ber, defaults.link_quality.degraded_ber);
  EXPECT_EQ(options->pfc.storm_fraction, defaults.pfc.storm_fraction);
  EXPECT_EQ(options->pfc.clear_fraction, defaults.pfc.clear_fraction);
}

TEST(EthtoolFlagsTest, ZeroTurnsReadsOffAndShortWindowsShortenTheirSpans) {
  StatusOr<EthtoolOptions> options = ParseEthtoolArgs(
      {"--ethtool-interval", "0", "--link-quality-window", "1s", "--pfc-storm-fraction", "0.2"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_FALSE(options->enabled);
  EXPECT_LE(options->link_quality.min_span, std::chrono::seconds(1));
  EXPECT_LE(options->pfc.clear_fraction, 0.1);
}

TEST(EthtoolFlagsTest, InconsistentValuesNameTheirFlags) {
  EXPECT_EQ(ParseEthtoolArgs({"--link-ber-degraded", "1e-3", "--link-ber-failing", "1e-5"})
                .status()
                .message(),
            "--link-ber-degraded and --link-ber-failing: need 0 < degraded < failing < 1");
  EXPECT_EQ(ParseEthtoolArgs({"--pfc-storm-fraction", "1.5"}).status().message(),
            "--pfc-storm-fraction must be in (0, 1]");
  EXPECT_EQ(ParseEthtoolArgs({"--pfc-window", "0"}).status().message(),
            "--link-quality-window and --pfc-window must be positive");
  EXPECT_EQ(ParseEthtoolArgs({"--link-ber-failing", "often"}).status().message(),
            "--link-ber-failing: 'often' is not a number");
}

}  // namespace
}  // namespace rocewatch
