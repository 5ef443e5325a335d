// The `rocewatch run` flag table is what docs/cli.md lists: each flag with its environment variable
// and its default, on one line of the flag table.
#include "cli/run_flags.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <sstream>

namespace rocewatch {
namespace {

std::vector<std::string> DocLines() {
  std::ifstream in(std::string(ROCEWATCH_SOURCE_DIR) + "/docs/cli.md");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(RunFlagsTest, EveryFlagIsDocumentedWithItsVariableAndDefault) {
  const std::vector<std::string> lines = DocLines();
  ASSERT_FALSE(lines.empty()) << "docs/cli.md not found";
  RunOptions defaults;
  LldpFlagValues lldp;
  FlagTable flags = RunCommandFlagTable(defaults, lldp);
  ASSERT_GE(flags.rows().size(), 35u);  // run's own, traffic, ethtool, LLDP
  for (const FlagTable::Row& row : flags.rows()) {
    const std::string* documented = nullptr;
    for (const std::string& line : lines)
      if (line.rfind("| `" + row.name + " ", 0) == 0 || line.rfind("| `" + row.name + "`", 0) == 0)
        documented = documented ? documented : &line;  // the first: run comes first
    ASSERT_NE(documented, nullptr) << row.name << " is not in docs/cli.md's flag table";
    EXPECT_NE(documented->find("`" + row.env + "`"), std::string::npos)
        << row.name << ": docs/cli.md does not name " << row.env;
    if (row.show_default) {
      EXPECT_NE(documented->find("`" + row.text + "`"), std::string::npos)
          << row.name << ": docs/cli.md does not give the default " << row.text;
    }
  }
}

// Each default parses back to itself: what --help shows is what the daemon runs with.
TEST(RunFlagsTest, TheDefaultsShownAreTheDefaultsRun) {
  RunOptions options;
  FlagTable flags = RunFlagTable(options);
  ASSERT_TRUE(flags.Apply().ok());
  const RunOptions defaults;
  EXPECT_EQ(options.interval, defaults.interval);
  EXPECT_EQ(options.settle, defaults.settle);
  EXPECT_EQ(options.listen.ToText(), defaults.listen.ToText());
  EXPECT_EQ(options.state_file, defaults.state_file);
  EXPECT_EQ(options.consumers.scan_interval, defaults.consumers.scan_interval);
  EXPECT_EQ(options.consumers.kubelet_interval, defaults.consumers.kubelet_interval);
  EXPECT_EQ(options.netlink_receive_buffer, defaults.netlink_receive_buffer);
  EXPECT_FALSE(options.expected_gid_index.has_value());
}

// A switch row: off by default, on when given, and from its environment variable.
TEST(RunFlagsTest, ASwitchIsOffUnlessGiven) {
  for (const auto& [args, expected] :
       std::vector<std::pair<std::vector<std::string>, bool>>{{{}, false}, {{"--no-lldp"}, true}}) {
    RunOptions options;
    LldpFlagValues lldp;
    FlagTable flags = RunCommandFlagTable(options, lldp);
    CLI::App app;
    flags.AddTo(app);
    std::vector<std::string> argv = args;
    std::reverse(argv.begin(), argv.end());  // CLI11 takes them last first
    app.parse(argv);
    ASSERT_TRUE(flags.Apply().ok());
    EXPECT_EQ(lldp.no_lldp, expected);
  }
}

}  // namespace
}  // namespace rocewatch
