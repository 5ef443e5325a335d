// The `rocewatch run --traffic-*` flags end to end but without a process: CLI11 parses a fuzzed
// argument vector (NUL-separated arguments) into the flag table's rows, FlagTable::Apply parses
// them into TrafficOptions and CheckTrafficFlags validates them together. This is the pure part of
// the command line (RunCli itself starts the daemon). Any CLI11 error is the caller's to catch
// (RunCli does); a value that validates must be usable.
#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "traffic/traffic_flags.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(std::move(current));
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  args.push_back(current);
  if (args.size() > 64) return 0;

  CLI::App app{"fuzz"};
  TrafficOptions parsed;
  FlagTable flags;
  AddTrafficFlags(flags, parsed);
  flags.AddTo(app);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::Error&) {
    return 0;  // a parse error: RunCli prints it and exits 2
  }
  Status applied = flags.Apply();
  if (applied.ok()) applied = CheckTrafficFlags(parsed);
  if (!applied.ok()) {
    FUZZ_CHECK(!applied.message().empty());
    return 0;
  }
  FUZZ_CHECK(parsed.Validate().ok());
  FUZZ_CHECK(parsed.baseline_samples <= TrafficOptions::kMaxBaselineSamples);
  FUZZ_CHECK(parsed.collapse_after >= Duration::zero());
  return 0;
}
