#pragma once
// Golden-file comparison. ROCEWATCH_UPDATE_GOLDEN=1 rewrites the file instead of comparing
// (review the diff before committing it).

#include <string>

namespace rocewatch {

// The absolute path of tests/golden/<name> in the source tree.
std::string GoldenPath(const std::string& name);
// EXPECTs `actual` equal to the golden file's content (or rewrites it, see above).
void ExpectMatchesGolden(const std::string& actual, const std::string& name);

// Runs a shell command, returns its stdout and sets *exit_status.
std::string RunCommand(const std::string& command, int* exit_status);

}  // namespace rocewatch
