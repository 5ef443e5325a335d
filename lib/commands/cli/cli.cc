#include "cli/cli.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstring>
#include <iostream>

#include "build_info.h"
#include "cli/command_flags.h"
#include "cli/run_flags.h"
#include "collect/collect_command.h"
#include "core/duration.h"
#include "core/flag_table.h"
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

// What diagnose's flags hold as typed; checked into DiagnoseOptions after the parse.
struct DiagnoseFlagValues {
  RawCommon common;
  std::string kubelet_socket;
  bool json = false;
  bool npd = false;
  bool no_optics = false;
  std::string watch;
  std::string link_window = FormatDuration(DiagnoseOptions().link_window);
  std::string daemon_url = DefaultDaemonUrl();
  CLI::Option* daemon_flag = nullptr;  // to tell a daemon named from the default one
};

CLI::App* AddDiagnoseCommand(CLI::App& app, DiagnoseFlagValues& flags) {
  CLI::App* diagnose =
      app.add_subcommand("diagnose", "One-shot report; exit 0 healthy, 1 warning, 2 critical");
  AddCommonFlags(diagnose, flags.common);
  CLI::Option* json_flag =
      diagnose->add_flag("--json", flags.json, "Machine-readable report on stdout");
  diagnose
      ->add_flag("--npd", flags.npd,
                 "node-problem-detector plugin: one line, exit 0 OK, 1 critical, 2 unknown")
      ->excludes(json_flag);
  diagnose->add_option("--watch", flags.watch,
                       "Observe link, address and GID events for this long, then report");
  diagnose->add_flag("--no-optics", flags.no_optics, "Do not read transceiver pages (I2C)")
      ->envname("ROCEWATCH_NO_OPTICS");
  diagnose
      ->add_option("--link-window", flags.link_window,
                   "Without --watch: rate link quality and PFC from two samples this far apart "
                   "(0: one sample); netdevs the daemon rates are not waited for")
      ->envname("ROCEWATCH_LINK_WINDOW")
      ->capture_default_str();
  diagnose
      ->add_option("--kubelet-socket", flags.kubelet_socket,
                   "The kubelet pod-resources socket (default under --host-root; none: not used)")
      ->envname("ROCEWATCH_KUBELET_SOCKET");
  flags.daemon_flag =
      diagnose
          ->add_option("--daemon", flags.daemon_url,
                       "The running daemon whose live findings are merged (http://HOST:PORT or "
                       "unix:PATH), or none; an unreachable daemon is an info line (default: the "
                       "daemon's local socket where it exists, else ROCEWATCH_LISTEN's address, "
                       "else 127.0.0.1:9879)")
          ->envname("ROCEWATCH_DAEMON")
          ->capture_default_str();
  return diagnose;
}

// What collect's flags hold as typed; checked into CollectCommandOptions after the parse.
struct CollectFlagValues {
  RawCommon common;
  std::string directory;
  bool no_optics = false;
  std::string kubelet_socket;
  std::string lldp_wait = FormatDuration(CollectCommandOptions{}.lldp_wait);
  std::string daemon_url = DefaultDaemonUrl();
};

CLI::App* AddCollectCommand(CLI::App& app, CollectFlagValues& flags) {
  CLI::App* collect = app.add_subcommand(
      "collect", "Write a support bundle (a host-root tree that diagnose --host-root reads)");
  AddCommonFlags(collect, flags.common);
  collect->add_option("DIR", flags.directory, "Where to write the bundle (created if missing)")
      ->required();
  collect->add_flag("--no-optics", flags.no_optics, "Do not read transceiver pages (I2C)")
      ->envname("ROCEWATCH_NO_OPTICS");
  collect
      ->add_option("--kubelet-socket", flags.kubelet_socket,
                   "The kubelet pod-resources socket whose answer is recorded (default under "
                   "--host-root; none: not asked)")
      ->envname("ROCEWATCH_KUBELET_SOCKET");
  collect
      ->add_option("--lldp-wait", flags.lldp_wait,
                   "How long to wait for each rail's LLDP frame (0: do not record LLDP)")
      ->envname("ROCEWATCH_LLDP_WAIT")
      ->capture_default_str();
  collect
      ->add_option("--daemon", flags.daemon_url,
                   "The running daemon whose findings, events and /metrics are recorded in the "
                   "bundle (as diagnose's --daemon), or none; an unreachable daemon is a line of "
                   "the bundle's failures")
      ->envname("ROCEWATCH_DAEMON")
      ->capture_default_str();
  return collect;
}

int RunCollectFromFlags(const HostEnv& env, const CollectFlagValues& flags,
                        const TypedCommand& typed) {
  auto fail = [&](const Status& s) {
    std::cerr << "rocewatch collect: " << typed.Explain(s) << "\n";
    return 3;
  };
  StatusOr<CommonOptions> common = ValidateCommon(flags.common);
  if (!common.ok()) return fail(common.status());
  CollectCommandOptions options;
  options.common = *common;
  options.directory = flags.directory;
  options.optics = !flags.no_optics;
  options.consumers.kubelet_socket = flags.kubelet_socket;
  StatusOr<Duration> lldp_wait = NamedDuration("--lldp-wait", flags.lldp_wait);
  if (!lldp_wait.ok()) return fail(lldp_wait.status());
  options.lldp_wait = *lldp_wait;
  StatusOr<std::optional<HttpUrl>> daemon = ParseDaemonFlag(flags.daemon_url);
  if (!daemon.ok()) return fail(daemon.status());
  options.daemon = *daemon;
  options.daemon_text = flags.daemon_url;
  return RunCollect(ConfinedHostEnv(env, common->paths), options, std::cout, std::cerr);
}

int RunSlurmCheckFromFlags(const HostEnv& env, const RawCommon& raw, SlurmCheckFlagValues& flags,
                           const TypedCommand& typed) {
  auto fail = [&](const Status& s) {
    std::cerr << "rocewatch slurm-check: " << typed.Explain(s) << "\n";
    return 3;
  };
  StatusOr<CommonOptions> common = ValidateCommon(raw);
  if (!common.ok()) return fail(common.status());
  StatusOr<SlurmCheckSetup> setup = SlurmCheckSetupFromFlags(flags, *common);
  if (!setup.ok()) return fail(setup.status());
  PosixCommandRunner runner;
  ScontrolSlurmControl slurm(runner, *env.clock, env.clock->Now() + setup->deadline,
                             setup->scontrol);
  return RunSlurmCheck(env, slurm, *env.state_writer, setup->check, std::cout);
}

int RunDiagnoseFromFlags(const HostEnv& env, const DiagnoseFlagValues& flags,
                         const TypedCommand& typed) {
  auto fail = [&](const Status& s) {
    const std::string message = typed.Explain(s);
    if (flags.npd) return ReportNpdCouldNotRun(message, std::cout);
    std::cerr << "rocewatch diagnose: " << message << "\n";
    return 3;
  };
  StatusOr<CommonOptions> common = ValidateCommon(flags.common);
  if (!common.ok()) return fail(common.status());
  DiagnoseOptions options;
  options.common = *common;
  options.json = flags.json;
  if (!flags.watch.empty()) {
    StatusOr<Duration> d = PositiveDuration("--watch", flags.watch);
    if (!d.ok()) return fail(d.status());
    options.watch = *d;
  }
  options.npd = flags.npd;
  options.optics = !flags.no_optics;
  if (flags.link_window != "0") {
    StatusOr<Duration> d = NamedDuration("--link-window", flags.link_window);
    if (!d.ok()) return fail(d.status());
    if (*d < Duration::zero() || *d > std::chrono::minutes(1))
      return fail(Status::InvalidArgument("--link-window must be between 0 and 1m"));
    options.link_window = *d;
  } else {
    options.link_window = Duration::zero();
  }
  options.consumers.kubelet_socket = flags.kubelet_socket;
  options.daemon_text = flags.daemon_url;
  StatusOr<std::optional<HttpUrl>> daemon = ParseDaemonFlag(flags.daemon_url);
  if (!daemon.ok()) return fail(daemon.status());
  options.daemon = *daemon;
  // Named on the command line or in ROCEWATCH_DAEMON: asked even for a bundle with a recording.
  options.daemon_given = flags.daemon_flag->count() > 0;
  const HostEnv confined = ConfinedHostEnv(env, options.common.paths);
  if (flags.npd) return RunDiagnoseForNpd(confined, options, std::cout);
  return RunDiagnose(confined, options, std::cout, std::cerr, isatty(STDOUT_FILENO) == 1);
}

// `options` holds what the rows of `flags` (the run command's flag table) wrote at the parse.
int RunDaemonFromFlags(const HostEnv& env, const RawCommon& raw, RunOptions& options,
                       FlagTable& flags, const LldpFlagValues& lldp_flags,
                       const TypedCommand& typed) {
  auto fail = [&](const Status& s) {
    std::cerr << "rocewatch run: " << typed.Explain(s) << "\n";
    return 2;
  };
  StatusOr<CommonOptions> common = ValidateCommon(raw);
  if (!common.ok()) return fail(common.status());
  options.common = *common;
  if (Status applied = flags.Apply(); !applied.ok()) return fail(applied);
  if (Status traffic = CheckTrafficFlags(options.traffic); !traffic.ok()) return fail(traffic);
  if (Status ethtool = FinishEthtoolFlags(options.ethtool); !ethtool.ok()) return fail(ethtool);
  StatusOr<LldpOptions> lldp = LldpOptionsFromFlags(lldp_flags, *env.files);
  if (!lldp.ok()) return fail(lldp.status());
  options.lldp = std::move(lldp).value();
  return RunDaemon(ConfinedHostEnv(env, options.common.paths), options);
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
  DiagnoseFlagValues diagnose_flags;
  CLI::App* diagnose = AddDiagnoseCommand(app, diagnose_flags);
  app.add_subcommand("version", "Version and build information");
  CollectFlagValues collect_flags;
  CLI::App* collect = AddCollectCommand(app, collect_flags);
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
  const CLI::App& typed_command = argc > 1 && std::strcmp(argv[1], "collect") == 0 ? *collect
                                  : slurm_checking                                 ? *slurm_check
                                  : diagnosing                                     ? *diagnose
                                                                                   : *run;
  const TypedCommand typed{typed_command, args};
  try {
    std::vector<const char*> arg_pointers;
    for (const std::string& arg : args) arg_pointers.push_back(arg.c_str());
    app.parse(static_cast<int>(arg_pointers.size()), arg_pointers.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "rocewatch: " << NameValueSources(e.what(), typed_command, args)
              << " (see rocewatch --help)\n";
    return diagnosing ? 3 : 2;
  }

  if (app.got_subcommand("version")) {
    std::cout << "rocewatch " << kVersion << " (" << kGitRevision << ")\n";
    return 0;
  }
  if (collect->parsed()) return RunCollectFromFlags(env, collect_flags, typed);
  if (slurm_check->parsed()) return RunSlurmCheckFromFlags(env, slurm_common, slurm_flags, typed);
  if (diagnose->parsed()) return RunDiagnoseFromFlags(env, diagnose_flags, typed);
  return RunDaemonFromFlags(env, run_common, run_options, run_flags, lldp_flags, typed);
}

}  // namespace rocewatch
