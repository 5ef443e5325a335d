#pragma once
// spdlog setup for --log-level and --log-format text|json. Logs go to stderr; stdout belongs to
// diagnose's report.

#include <string_view>

#include "core/status.h"

namespace rocewatch {

// Errors: InvalidArgument for an unknown level or format.
Status ConfigureLogging(std::string_view level, std::string_view format);

}  // namespace rocewatch
