#pragma once
// A command's flags as one table. Each row names the flag, its help and how its text becomes a
// field of an options struct; its environment variable is derived from the name by one rule
// (ROCEWATCH_ + the name upper-cased, '-' as '_': --state-file is ROCEWATCH_STATE_FILE), and its
// default is the field's value when the row is added (the options struct's own defaults, e.g.
// daemon/defaults.h). `--help` shows that default, CLI11 reads the variable, Apply parses every
// row's text into its field, and the rows themselves are what a test checks docs/cli.md against.
//
//   RunOptions options;                     // the defaults
//   FlagTable flags;
//   flags.PositiveDuration("--interval", "GID and counter poll interval", options.interval);
//   flags.AddTo(command);                   // before parsing
//   Status applied = flags.Apply();         // after: "--interval must be positive"
//
// Lifetime: the bound fields outlive the table; the table outlives the parse (CLI11 writes each
// row's text). Not thread-safe.

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>

#include "core/clock.h"
#include "core/status.h"

namespace CLI {
class App;
}

namespace rocewatch {

class FlagTable {
 public:
  struct Row {
    std::string name;  // "--interval"
    std::string env;   // "ROCEWATCH_INTERVAL"
    std::string help;
    std::string text;                // the default's text, then the value as given
    std::string type_name = "TEXT";  // what --help calls the value: DURATION, INT, NUMBER, TEXT
    std::string group;               // the --help section; empty: the command's options
    bool show_default = true;
    bool is_switch = false;    // a flag without a value (Switch)
    bool switched_on = false;  // a switch's value as given
    // Parses `text` into the bound field; InvalidArgument naming the flag when it is bad.
    std::function<Status(const std::string& text)> apply;
  };

  // A duration ("500ms", "1m30s"); PositiveDuration refuses 0.
  FlagTable& AnyDuration(std::string name, std::string help, Duration& field);
  FlagTable& PositiveDuration(std::string name, std::string help, Duration& field);
  // Text as given (an empty value included: "--state-file="); an empty default is not shown.
  FlagTable& Text(std::string name, std::string help, std::string& field);
  // An integer in [min, max].
  FlagTable& Integer(std::string name, std::string help, int64_t min, int64_t max, int& field);
  // An integer in [min, max], or unset (no default shown).
  FlagTable& OptionalInteger(std::string name, std::string help, int64_t min, int64_t max,
                             std::optional<uint32_t>& field);
  // A finite number ("0.4", "5e6").
  FlagTable& Number(std::string name, std::string help, double& field);
  // A count of at least 1.
  FlagTable& Count(std::string name, std::string help, size_t& field);
  // A flag without a value ("--no-lldp"; its variable: true/false, 1/0): sets the field true.
  FlagTable& Switch(std::string name, std::string help, bool& field);
  // Any other value: `parse` gets the text and sets its field; `default_text` is shown.
  FlagTable& Custom(std::string name, std::string help, std::string default_text,
                    std::function<Status(const std::string& text)> parse);

  // The --help section of the rows added from now on.
  FlagTable& Group(std::string group);

  // Declares every row on `command` (in table order), each with its environment variable.
  void AddTo(CLI::App& command);
  // Every row's text into its field, in table order; the first bad one's error.
  Status Apply() const;

  const std::deque<Row>& rows() const { return rows_; }

  // ROCEWATCH_ + the flag's name without its dashes, upper-cased, '-' as '_'.
  static std::string EnvironmentVariableOf(const std::string& name);

 private:
  FlagTable& Add(std::string name, std::string help, std::string text, std::string type_name,
                 std::function<Status(const std::string&)> apply);

  std::deque<Row> rows_;  // a deque: CLI11 keeps a reference to each row's text
  std::string group_;
};

}  // namespace rocewatch
