#pragma once
// What every subcommand's command line shares: the common flags (--host-root, --sysfs-root,
// --gid-source, --log-level, --log-format) and their check, duration and --daemon values, the
// argument fix-up CLI11 needs, and errors that name the environment variable a value came from.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/status.h"
#include "daemon/options.h"
#include "export/http_fetch.h"

namespace rocewatch {

// Raw flag values as typed; validated into CommonOptions after parsing.
struct RawCommon {
  std::string host_root = "/";
  std::string sysfs_root;
  std::string gid_source = "auto";
  std::string log_level = "info";
  std::string log_format = "text";
};

void AddCommonFlags(CLI::App* cmd, RawCommon& raw);
// Checks the values and configures logging by them.
StatusOr<CommonOptions> ValidateCommon(const RawCommon& raw);

// A duration flag's value; the error names the flag.
StatusOr<Duration> NamedDuration(const std::string& flag, const std::string& text);
// As NamedDuration, and it must be positive.
StatusOr<Duration> PositiveDuration(const std::string& flag, const std::string& text);

// CLI11 reads "--name=" like "--name" and then takes the next argument as the value (so
// `--state-file= --interval=1s` named the state file "--interval=1s"). Rewrites "--name=" into
// "--name" "" so that the value is the empty string, as typed. Stops at "--".
std::vector<std::string> WithExplicitEmptyValues(int argc, char** argv);

// `message` with each flag of `cmd` whose value came from its environment variable named as that
// variable ("--interval: ..." -> "ROCEWATCH_INTERVAL (environment): ..."): the user never typed
// the flag.
std::string NameValueSources(std::string message, const CLI::App& cmd,
                             const std::vector<std::string>& args);

// Where `diagnose` and `collect` look for the daemon without --daemon: the daemon's local socket
// where one is (ROCEWATCH_API_SOCKET, as the daemon of this environment is told, else the default
// path; empty: none), else where the daemon listens (ROCEWATCH_LISTEN, as the Kubernetes DaemonSet
// sets it for every process of the pod, so that an exec'd diagnose finds it on the node's address),
// else 127.0.0.1:9879. A listen address on every interface is asked on 127.0.0.1; an unparsable
// one falls back to the default.
std::string DefaultDaemonUrl();

// --daemon of diagnose and collect: a URL, or nullopt for `none`.
StatusOr<std::optional<HttpUrl>> ParseDaemonFlag(const std::string& text);

// The subcommand the user typed and the arguments, to name in an error each flag whose value came
// from its environment variable (NameValueSources).
struct TypedCommand {
  const CLI::App& command;
  const std::vector<std::string>& args;
  std::string Explain(const Status& status) const {
    return NameValueSources(status.message(), command, args);
  }
};

}  // namespace rocewatch
