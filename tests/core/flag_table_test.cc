// The flag table: defaults shown and parsed like given values, environment variables by one rule,
// bad values named.
#include "core/flag_table.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <CLI/CLI.hpp>

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

struct Options {
  Duration interval = seconds(1);
  Duration settle = milliseconds(100);
  std::string state_file = "/var/lib/x";
  int buffer = 4096;
  std::optional<uint32_t> index;
};

FlagTable TableOf(Options& o) {
  FlagTable flags;
  flags.PositiveDuration("--interval", "poll interval", o.interval)
      .AnyDuration("--settle", "settle delay", o.settle)
      .Text("--state-file", "state", o.state_file)
      .Integer("--buffer", "bytes", 1024, 1 << 20, o.buffer)
      .OptionalInteger("--expected-index", "index", 0, 65535, o.index);
  return flags;
}

// Parses `args` (after the program name) into a fresh Options through its table.
StatusOr<Options> Parse(std::vector<std::string> args) {
  Options options;
  FlagTable flags = TableOf(options);
  CLI::App app;
  flags.AddTo(app);
  args.insert(args.begin(), "test");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  if (Status applied = flags.Apply(); !applied.ok()) return applied;
  return options;
}

TEST(FlagTableTest, DefaultsAreTheOptionsOwnAndParseBackToThemselves) {
  Options defaults;
  FlagTable flags = TableOf(defaults);
  ASSERT_EQ(flags.rows().size(), 5u);
  EXPECT_EQ(flags.rows()[0].text, "1s");
  EXPECT_EQ(flags.rows()[1].text, "100ms");
  EXPECT_EQ(flags.rows()[2].text, "/var/lib/x");
  EXPECT_EQ(flags.rows()[3].text, "4096");
  EXPECT_FALSE(flags.rows()[4].show_default);  // unset: nothing to show
  StatusOr<Options> parsed = Parse({});
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->interval, seconds(1));
  EXPECT_EQ(parsed->settle, milliseconds(100));
  EXPECT_EQ(parsed->buffer, 4096);
  EXPECT_FALSE(parsed->index.has_value());
}

TEST(FlagTableTest, GivenValuesReachTheirFields) {
  StatusOr<Options> parsed = Parse({"--interval", "500ms", "--settle", "0", "--state-file", "",
                                    "--buffer", "2048", "--expected-index", "3"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->interval, milliseconds(500));
  EXPECT_EQ(parsed->settle, Duration::zero());
  EXPECT_EQ(parsed->state_file, "");
  EXPECT_EQ(parsed->buffer, 2048);
  EXPECT_EQ(parsed->index, 3u);
}

TEST(FlagTableTest, BadValuesAreOneErrorNamingTheFlag) {
  EXPECT_EQ(Parse({"--interval", "0s"}).status().message(), "--interval must be positive");
  EXPECT_EQ(Parse({"--settle", "soon"}).status().message().rfind("--settle: ", 0), 0u);
  EXPECT_EQ(Parse({"--buffer", "12"}).status().message(), "--buffer: 12 is not in [1024, 1048576]");
  EXPECT_EQ(Parse({"--buffer", "4k"}).status().message(), "--buffer: '4k' is not an integer");
  EXPECT_EQ(Parse({"--expected-index", "70000"}).status().message(),
            "--expected-index: 70000 is not in [0, 65535]");
}

TEST(FlagTableTest, EachFlagIsReadFromItsEnvironmentVariable) {
  EXPECT_EQ(FlagTable::EnvironmentVariableOf("--state-file"), "ROCEWATCH_STATE_FILE");
  EXPECT_EQ(FlagTable::EnvironmentVariableOf("--expected-index"), "ROCEWATCH_EXPECTED_INDEX");
  ::setenv("ROCEWATCH_INTERVAL", "2m", 1);
  StatusOr<Options> parsed = Parse({});
  StatusOr<Options> given = Parse({"--interval", "3s"});  // the command line wins
  ::unsetenv("ROCEWATCH_INTERVAL");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->interval, std::chrono::minutes(2));
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(given->interval, seconds(3));
}

}  // namespace
}  // namespace rocewatch
