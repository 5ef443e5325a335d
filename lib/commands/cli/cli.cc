#include "cli/cli.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "build_info.h"
#include "cli/run_flags.h"
#include "collect/collect_command.h"
#include "core/duration.h"
#include "core/flag_table.h"
#include "daemon/logging.h"
#include "daemon/run_command.h"
#include "diagnose/diagnose_command.h"
#include "fabric/lldp_flags.h"
#include "link_quality/ethtool_flags.h"
#include "npd/npd_command.h"
#include "os/command_runner.h"
#include "slurm_check/slurm_check_command.h"
#include "slurm_check/slurm_check_flags.h"
#include "traffic/traffic_flags.h"

namespace rocewatch {
namespace {

// Raw flag values as typed; validated into RunOptions / DiagnoseOptions after parsing.
struct RawCommon {
  std::string host_root = "/";
  std::string sysfs_root;
  std::string gid_source = "auto";
  std::string log_level = "info";
  std::string log_format = "text";
};

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

// CLI11 reads "--name=" like "--name" and then takes the next argument as the value (so
// `--state-file= --interval=1s` named the state file "--interval=1s"). Rewrites "--name=" into
// "--name" "" so that the value is the empty string, as typed. Stops at "--".
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

bool GivenOnCommandLine(const std::vector<std::string>& args, const std::string& flag) {
  for (const std::string& arg : args)
    if (arg == flag || arg.rfind(flag + "=", 0) == 0) return true;
  return false;
}

// `message` with each flag of `cmd` whose value came from its environment variable named as that
// variable ("--interval: ..." -> "ROCEWATCH_INTERVAL (environment): ..."): the user never typed
// the flag.
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

// Where `diagnose` looks for the daemon without --daemon: the daemon's local socket where one is
// (ROCEWATCH_API_SOCKET, as the daemon of this environment is told, else the default path; empty:
// none), else where the daemon listens (ROCEWATCH_LISTEN, as the Kubernetes DaemonSet sets it
// for every process of the pod, so that an exec'd diagnose finds it on the node's address), else
// 127.0.0.1:9879. A listen address on every interface is asked on 127.0.0.1; an unparsable one
// falls back to the default.
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

// --daemon of diagnose and collect: a URL, or nullopt for `none`.
StatusOr<std::optional<HttpUrl>> ParseDaemonFlag(const std::string& text) {
  if (text == "none") return std::optional<HttpUrl>();
  StatusOr<HttpUrl> url = ParseHttpUrl(text);
  if (!url.ok())
    return Status::InvalidArgument("--daemon: " + url.status().message() +
                                   " (use http://HOST:PORT, unix:PATH or none)");
  return std::optional<HttpUrl>(*url);
}

}  // namespace

int RunCli(const HostEnv& env, int argc, char** argv) {
  CLI::App app{"rocewatch: RDMA/RoCE health for GPU nodes (GID drift, link flaps, traffic)",
               "rocewatch"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");

  RawCommon run_common;
  // Every default comes from a default RunOptions (daemon/defaults.h): shown by --help, parsed like
  // a given value.
  RunOptions run_options;
  CLI::App* run = app.add_subcommand("run", "The daemon: watch, detect, serve /metrics");
  AddCommonFlags(run, run_common);
  LldpFlagValues lldp_flags;
  FlagTable run_flags = RunCommandFlagTable(run_options, lldp_flags);
  run_flags.AddTo(*run);

  RawCommon diagnose_common;
  std::string diagnose_kubelet_socket;
  bool json = false, npd = false;
  std::string watch, daemon_url = DefaultDaemonUrl();
  CLI::App* diagnose =
      app.add_subcommand("diagnose", "One-shot report; exit 0 healthy, 1 warning, 2 critical");
  AddCommonFlags(diagnose, diagnose_common);
  CLI::Option* json_flag = diagnose->add_flag("--json", json, "Machine-readable report on stdout");
  diagnose
      ->add_flag("--npd", npd,
                 "node-problem-detector plugin: one line, exit 0 OK, 1 critical, 2 unknown")
      ->excludes(json_flag);
  diagnose->add_option("--watch", watch,
                       "Observe link, address and GID events for this long, then report");
  bool no_optics = false;
  diagnose->add_flag("--no-optics", no_optics, "Do not read transceiver pages (I2C)")
      ->envname("ROCEWATCH_NO_OPTICS");
  std::string link_window = FormatDuration(DiagnoseOptions().link_window);
  diagnose
      ->add_option("--link-window", link_window,
                   "Without --watch: rate link quality and PFC from two samples this far apart "
                   "(0: one sample); netdevs the daemon rates are not waited for")
      ->envname("ROCEWATCH_LINK_WINDOW")
      ->capture_default_str();
  diagnose
      ->add_option("--kubelet-socket", diagnose_kubelet_socket,
                   "The kubelet pod-resources socket (default under --host-root; none: not used)")
      ->envname("ROCEWATCH_KUBELET_SOCKET");
  CLI::Option* daemon_flag =
      diagnose
          ->add_option("--daemon", daemon_url,
                       "The running daemon whose live findings are merged (http://HOST:PORT or "
                       "unix:PATH), or none; an unreachable daemon is an info line (default: the "
                       "daemon's local socket where it exists, else ROCEWATCH_LISTEN's address, "
                       "else 127.0.0.1:9879)")
          ->envname("ROCEWATCH_DAEMON")
          ->capture_default_str();

  app.add_subcommand("version", "Version and build information");

  RawCommon collect_common;
  std::string collect_dir;
  bool collect_no_optics = false;
  CLI::App* collect = app.add_subcommand(
      "collect", "Write a support bundle (a host-root tree that diagnose --host-root reads)");
  AddCommonFlags(collect, collect_common);
  collect->add_option("DIR", collect_dir, "Where to write the bundle (created if missing)")
      ->required();
  collect->add_flag("--no-optics", collect_no_optics, "Do not read transceiver pages (I2C)")
      ->envname("ROCEWATCH_NO_OPTICS");
  std::string collect_kubelet_socket;
  collect
      ->add_option("--kubelet-socket", collect_kubelet_socket,
                   "The kubelet pod-resources socket whose answer is recorded (default under "
                   "--host-root; none: not asked)")
      ->envname("ROCEWATCH_KUBELET_SOCKET");
  std::string collect_lldp_wait = FormatDuration(CollectCommandOptions{}.lldp_wait);
  collect
      ->add_option("--lldp-wait", collect_lldp_wait,
                   "How long to wait for each rail's LLDP frame (0: do not record LLDP)")
      ->envname("ROCEWATCH_LLDP_WAIT")
      ->capture_default_str();
  std::string collect_daemon_url = DefaultDaemonUrl();
  collect
      ->add_option("--daemon", collect_daemon_url,
                   "The running daemon whose findings, events and /metrics are recorded in the "
                   "bundle (as diagnose's --daemon), or none; an unreachable daemon is a line of "
                   "the bundle's failures")
      ->envname("ROCEWATCH_DAEMON")
      ->capture_default_str();

  // Slurm's HealthCheckProgram (docs/deploy.md, "Slurm").
  RawCommon slurm_common;
  SlurmCheckFlagValues slurm_flags;
  CLI::App* slurm_check = app.add_subcommand(
      "slurm-check", "Slurm health check: drain or resume this node by rocewatch's findings");
  AddCommonFlags(slurm_check, slurm_common);
  AddSlurmCheckFlags(*slurm_check, slurm_flags);

  // diagnose, collect and slurm-check report bad flags with status 3 ("could not run"), run
  // with 2.
  const bool slurm_checking = argc > 1 && std::strcmp(argv[1], "slurm-check") == 0;
  const bool diagnosing = argc > 1 && (std::strcmp(argv[1], "diagnose") == 0 ||
                                       std::strcmp(argv[1], "collect") == 0 || slurm_checking);
  const std::vector<std::string> args = WithExplicitEmptyValues(argc, argv);
  const CLI::App& typed = argc > 1 && std::strcmp(argv[1], "collect") == 0 ? *collect
                          : slurm_checking                                 ? *slurm_check
                          : diagnosing                                     ? *diagnose
                                                                           : *run;
  try {
    std::vector<const char*> arg_pointers;
    for (const std::string& arg : args) arg_pointers.push_back(arg.c_str());
    app.parse(static_cast<int>(arg_pointers.size()), arg_pointers.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "rocewatch: " << NameValueSources(e.what(), typed, args)
              << " (see rocewatch --help)\n";
    return diagnosing ? 3 : 2;
  }

  if (app.got_subcommand("version")) {
    std::cout << "rocewatch " << kVersion << " (" << kGitRevision << ")\n";
    return 0;
  }

  if (collect->parsed()) {
    StatusOr<CommonOptions> common = ValidateCommon(collect_common);
    if (!common.ok()) {
      std::cerr << "rocewatch collect: " << NameValueSources(common.status().message(), typed, args)
                << "\n";
      return 3;
    }
    CollectCommandOptions options;
    options.common = *common;
    options.directory = collect_dir;
    options.optics = !collect_no_optics;
    options.consumers.kubelet_socket = collect_kubelet_socket;
    StatusOr<Duration> lldp_wait = NamedDuration("--lldp-wait", collect_lldp_wait);
    if (!lldp_wait.ok()) {
      std::cerr << "rocewatch collect: "
                << NameValueSources(lldp_wait.status().message(), typed, args) << "\n";
      return 3;
    }
    options.lldp_wait = *lldp_wait;
    StatusOr<std::optional<HttpUrl>> daemon = ParseDaemonFlag(collect_daemon_url);
    if (!daemon.ok()) {
      std::cerr << "rocewatch collect: " << NameValueSources(daemon.status().message(), typed, args)
                << "\n";
      return 3;
    }
    options.daemon = *daemon;
    options.daemon_text = collect_daemon_url;
    return RunCollect(ConfinedHostEnv(env, common->paths), options, std::cout, std::cerr);
  }

  if (slurm_check->parsed()) {
    auto fail = [&](const Status& s) {
      std::cerr << "rocewatch slurm-check: " << NameValueSources(s.message(), typed, args) << "\n";
      return 3;
    };
    StatusOr<CommonOptions> common = ValidateCommon(slurm_common);
    if (!common.ok()) return fail(common.status());
    StatusOr<SlurmCheckSetup> setup = SlurmCheckSetupFromFlags(slurm_flags, *common);
    if (!setup.ok()) return fail(setup.status());
    PosixCommandRunner runner;
    ScontrolSlurmControl slurm(runner, *env.clock, env.clock->Now() + setup->deadline,
                               setup->scontrol);
    return RunSlurmCheck(env, slurm, *env.state_writer, setup->check, std::cout);
  }

  if (diagnose->parsed()) {
    auto fail = [&](const Status& s) {
      const std::string message = NameValueSources(s.message(), typed, args);
      if (npd) return ReportNpdCouldNotRun(message, std::cout);
      std::cerr << "rocewatch diagnose: " << message << "\n";
      return 3;
    };
    StatusOr<CommonOptions> common = ValidateCommon(diagnose_common);
    if (!common.ok()) return fail(common.status());
    DiagnoseOptions options;
    options.common = *common;
    options.json = json;
    if (!watch.empty()) {
      StatusOr<Duration> d = PositiveDuration("--watch", watch);
      if (!d.ok()) return fail(d.status());
      options.watch = *d;
    }
    options.npd = npd;
    options.optics = !no_optics;
    if (link_window != "0") {
      StatusOr<Duration> d = NamedDuration("--link-window", link_window);
      if (!d.ok()) return fail(d.status());
      if (*d < Duration::zero() || *d > std::chrono::minutes(1))
        return fail(Status::InvalidArgument("--link-window must be between 0 and 1m"));
      options.link_window = *d;
    } else {
      options.link_window = Duration::zero();
    }
    options.consumers.kubelet_socket = diagnose_kubelet_socket;
    options.daemon_text = daemon_url;
    StatusOr<std::optional<HttpUrl>> daemon = ParseDaemonFlag(daemon_url);
    if (!daemon.ok()) return fail(daemon.status());
    options.daemon = *daemon;
    // Named on the command line or in ROCEWATCH_DAEMON: asked even for a bundle with a recording.
    options.daemon_given = daemon_flag->count() > 0;
    const HostEnv confined = ConfinedHostEnv(env, options.common.paths);
    if (npd) return RunDiagnoseForNpd(confined, options, std::cout);
    return RunDiagnose(confined, options, std::cout, std::cerr, isatty(STDOUT_FILENO) == 1);
  }

  auto fail = [&](const Status& s) {
    std::cerr << "rocewatch run: " << NameValueSources(s.message(), typed, args) << "\n";
    return 2;
  };
  StatusOr<CommonOptions> common = ValidateCommon(run_common);
  if (!common.ok()) return fail(common.status());
  RunOptions& options = run_options;
  options.common = *common;
  if (Status applied = run_flags.Apply(); !applied.ok()) return fail(applied);
  if (Status traffic = CheckTrafficFlags(options.traffic); !traffic.ok()) return fail(traffic);
  if (Status ethtool = FinishEthtoolFlags(options.ethtool); !ethtool.ok()) return fail(ethtool);
  StatusOr<LldpOptions> lldp = LldpOptionsFromFlags(lldp_flags, *env.files);
  if (!lldp.ok()) return fail(lldp.status());
  options.lldp = std::move(lldp).value();
  return RunDaemon(ConfinedHostEnv(env, options.common.paths), options);
}

}  // namespace rocewatch
