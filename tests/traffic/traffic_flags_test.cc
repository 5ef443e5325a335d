#include "traffic/traffic_flags.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <vector>

namespace rocewatch {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

// Parses `args` as the flags of a `run`-like command.
StatusOr<TrafficOptions> ParseTrafficArgs(std::vector<std::string> args) {
  CLI::App app;
  TrafficOptions options;
  FlagTable flags;
  AddTrafficFlags(flags, options);
  flags.AddTo(app);
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return Status::InvalidArgument(e.what());
  }
  if (Status applied = flags.Apply(); !applied.ok()) return applied;
  if (Status checked = CheckTrafficFlags(options); !checked.ok()) return checked;
  return options;
}

TEST(TrafficFlags, DefaultsAreTheDetectorDefaults) {
  StatusOr<TrafficOptions> options = ParseTrafficArgs({});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  const TrafficOptions defaults;
  EXPECT_EQ(options->collapse_after, defaults.collapse_after);
  EXPECT_EQ(options->checkpoint_spread, defaults.checkpoint_spread);
  EXPECT_EQ(defaults.checkpoint_spread, seconds(15));
  EXPECT_EQ(options->node_stop_window, defaults.node_stop_window);
  EXPECT_EQ(options->forget_after, defaults.forget_after);
  EXPECT_EQ(options->degraded_after, defaults.degraded_after);
  EXPECT_EQ(options->active_rate, defaults.active_rate);
  EXPECT_EQ(options->baseline_samples, defaults.baseline_samples);
}

TEST(TrafficFlags, SetsEveryKindOfValue) {
  StatusOr<TrafficOptions> options =
      ParseTrafficArgs({"--traffic-collapse-after", "5s", "--traffic-node-stop-window", "0",
                        "--traffic-forget-after", "0", "--traffic-active-rate", "5e6",
                        "--traffic-degraded-fraction", "0.4", "--traffic-baseline-samples", "60"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->collapse_after, seconds(5));
  EXPECT_EQ(options->node_stop_window, Duration::zero());
  EXPECT_EQ(options->active_rate, 5e6);
  EXPECT_EQ(options->degraded_fraction, 0.4);
  EXPECT_EQ(options->baseline_samples, 60u);
}

TEST(TrafficFlags, SetsOrDisablesTheCheckpointSpread) {
  StatusOr<TrafficOptions> wider = ParseTrafficArgs({"--traffic-checkpoint-spread", "1m"});
  ASSERT_TRUE(wider.ok()) << wider.status().ToString();
  EXPECT_EQ(wider->checkpoint_spread, minutes(1));
  StatusOr<TrafficOptions> off = ParseTrafficArgs({"--traffic-checkpoint-spread", "0"});
  ASSERT_TRUE(off.ok()) << off.status().ToString();
  EXPECT_EQ(off->checkpoint_spread, Duration::zero());
  setenv("ROCEWATCH_TRAFFIC_CHECKPOINT_SPREAD", "20s", 1);
  StatusOr<TrafficOptions> from_env = ParseTrafficArgs({});
  unsetenv("ROCEWATCH_TRAFFIC_CHECKPOINT_SPREAD");
  ASSERT_TRUE(from_env.ok()) << from_env.status().ToString();
  EXPECT_EQ(from_env->checkpoint_spread, seconds(20));
}

TEST(TrafficFlags, ACheckpointSpreadOutsideItsBoundsNamesTheFlag) {
  const std::vector<std::vector<std::string>> bad = {
      {"--traffic-checkpoint-spread", "ten"},
      {"--traffic-checkpoint-spread", "2s"},   // shorter than --traffic-collapse-after
      {"--traffic-checkpoint-spread", "10m"},  // not shorter than --traffic-node-stop-window
      {"--traffic-collapse-after", "20s"},     // the default spread is then shorter than it
  };
  for (const auto& args : bad) {
    StatusOr<TrafficOptions> options = ParseTrafficArgs(args);
    ASSERT_FALSE(options.ok()) << args[0] << " " << args[1];
    EXPECT_NE(options.status().message().find("--traffic-checkpoint-spread"), std::string::npos)
        << options.status().message();
  }
  // A node-stop window of 0 (off) bounds nothing; a spread of 0 (off) needs no bound.
  EXPECT_TRUE(ParseTrafficArgs({"--traffic-node-stop-window", "0", "--traffic-forget-after", "0",
                                "--traffic-checkpoint-spread", "30m"})
                  .ok());
  EXPECT_TRUE(
      ParseTrafficArgs({"--traffic-collapse-after", "20s", "--traffic-checkpoint-spread", "0"})
          .ok());
}

TEST(TrafficFlags, ReadsTheEnvironment) {
  setenv("ROCEWATCH_TRAFFIC_NODE_STOP_WINDOW", "20m", 1);
  StatusOr<TrafficOptions> options = ParseTrafficArgs({});
  unsetenv("ROCEWATCH_TRAFFIC_NODE_STOP_WINDOW");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->node_stop_window, minutes(20));
}

TEST(TrafficFlags, BadValuesNameTheFlag) {
  const std::vector<std::vector<std::string>> bad = {
      {"--traffic-collapse-after", "5x"},   {"--traffic-degraded-after", ""},
      {"--traffic-node-stop-window", "2h"},  // longer than --traffic-forget-after
      {"--traffic-stop-fraction", "2"},     {"--traffic-active-rate", "fast"},
  };
  for (const auto& args : bad) {
    StatusOr<TrafficOptions> options = ParseTrafficArgs(args);
    ASSERT_FALSE(options.ok()) << args[0];
    EXPECT_NE(options.status().message().find("--traffic-"), std::string::npos)
        << options.status().message();
  }
}

}  // namespace
}  // namespace rocewatch
