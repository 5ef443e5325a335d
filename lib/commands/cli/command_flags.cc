#include "cli/command_flags.h"

#include <cctype>
#include <cstdlib>

#include "core/duration.h"
#include "daemon/defaults.h"
#include "daemon/logging.h"
#include "export/listen_address.h"

namespace rocewatch {
namespace {

bool GivenOnCommandLine(const std::vector<std::string>& args, const std::string& flag) {
  for (const std::string& arg : args)
    if (arg == flag || arg.rfind(flag + "=", 0) == 0) return true;
  return false;
}

}  // namespace

void AddCommonFlags(CLI::App* cmd, RawCommon& raw) {
  cmd->add_option("--host-root", raw.host_root,
                  "Host filesystem root: sysfs, procfs, /etc and /run are read under it")
      ->envname("ROCEWATCH_HOST_ROOT")
      ->capture_default_str();
  cmd->add_option("--sysfs-root", raw.sysfs_root, "Where sysfs is read (default <host-root>/sys)")
      ->envname("ROCEWATCH_SYSFS_ROOT");
  cmd->add_option("--gid-source", raw.gid_source,
                  "auto|verbs|sysfs: verbs where the RDMA devices can be opened, sysfs otherwise")
      ->envname("ROCEWATCH_GID_SOURCE")
      ->capture_default_str();
  cmd->add_option("--log-level", raw.log_level, "trace|debug|info|warn|error|critical|off")
      ->envname("ROCEWATCH_LOG_LEVEL")
      ->capture_default_str();
  cmd->add_option("--log-format", raw.log_format, "text|json")
      ->envname("ROCEWATCH_LOG_FORMAT")
      ->capture_default_str();
}

StatusOr<CommonOptions> ValidateCommon(const RawCommon& raw) {
  CommonOptions common;
  if (raw.host_root.empty()) return Status::InvalidArgument("--host-root must not be empty");
  common.paths = HostPaths::ForRoots(raw.host_root, raw.sysfs_root);
  if (raw.gid_source == "auto") {
    common.gid_source = GidSourceChoice::kAuto;
  } else if (raw.gid_source == "verbs") {
    common.gid_source = GidSourceChoice::kVerbs;
  } else if (raw.gid_source == "sysfs") {
    common.gid_source = GidSourceChoice::kSysfs;
  } else {
    return Status::InvalidArgument("invalid --gid-source '" + raw.gid_source +
                                   "' (use auto, verbs or sysfs)");
  }
  common.log_level = raw.log_level;
  common.log_format = raw.log_format;
  Status logging = ConfigureLogging(raw.log_level, raw.log_format);
  if (!logging.ok()) return logging;
  return common;
}

StatusOr<Duration> NamedDuration(const std::string& flag, const std::string& text) {
  StatusOr<Duration> d = ParseDuration(text);
  if (!d.ok()) return Status::InvalidArgument(flag + ": " + d.status().message());
  return d;
}

StatusOr<Duration> PositiveDuration(const std::string& flag, const std::string& text) {
  StatusOr<Duration> d = ParseDuration(text);
  if (!d.ok()) return Status::InvalidArgument(flag + ": " + d.status().message());
  if (*d <= Duration::zero()) return Status::InvalidArgument(flag + " must be positive");
  return d;
}

std::vector<std::string> WithExplicitEmptyValues(int argc, char** argv) {
  std::vector<std::string> args;
  bool options_ended = false;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") options_ended = true;
    if (!options_ended && i > 0 && arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '=' &&
        arg.find('=') == arg.size() - 1) {
      args.push_back(arg.substr(0, arg.size() - 1));
      args.emplace_back();
      continue;
    }
    args.push_back(std::move(arg));
  }
  return args;
}

std::string NameValueSources(std::string message, const CLI::App& cmd,
                             const std::vector<std::string>& args) {
  for (const CLI::Option* option : cmd.get_options()) {
    const std::string& env = option->get_envname();
    if (env.empty() || std::getenv(env.c_str()) == nullptr) continue;
    const std::string flag = option->get_name();
    if (flag.rfind("--", 0) != 0 || GivenOnCommandLine(args, flag)) continue;
    const std::string replacement = env + " (environment)";
    for (size_t at = message.find(flag); at != std::string::npos;
         at = message.find(flag, at + replacement.size())) {
      size_t end = at + flag.size();
      bool whole = end == message.size() ||
                   !(std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '-');
      if (!whole) {
        at += 1;
        continue;
      }
      message.replace(at, flag.size(), replacement);
    }
  }
  return message;
}

std::string DefaultDaemonUrl() {
  const char* socket = std::getenv("ROCEWATCH_API_SOCKET");
  const std::string socket_path = socket != nullptr ? socket : defaults::kApiSocket;
  if (!socket_path.empty() && IsUnixSocket(socket_path)) return "unix:" + socket_path;
  const char* listen = std::getenv("ROCEWATCH_LISTEN");
  if (listen != nullptr) {
    StatusOr<ListenAddress> address = ParseListenAddress(listen);
    if (address.ok() && address->port != 0) {
      std::string host =
          address->host.empty() || address->host == "0.0.0.0" ? "127.0.0.1" : address->host;
      return "http://" + host + ":" + std::to_string(address->port);
    }
  }
  return DiagnoseOptions::DefaultDaemonText();
}

StatusOr<std::optional<HttpUrl>> ParseDaemonFlag(const std::string& text) {
  if (text == "none") return std::optional<HttpUrl>();
  StatusOr<HttpUrl> url = ParseHttpUrl(text);
  if (!url.ok())
    return Status::InvalidArgument("--daemon: " + url.status().message() +
                                   " (use http://HOST:PORT, unix:PATH or none)");
  return std::optional<HttpUrl>(*url);
}

}  // namespace rocewatch
