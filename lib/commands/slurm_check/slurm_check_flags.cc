#include "slurm_check/slurm_check_flags.h"

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "core/duration.h"
#include "core/text.h"
#include "daemon/defaults.h"
#include "export/http_fetch.h"

namespace rocewatch {
namespace {

std::string DefaultNodeName() {
  if (const char* name = std::getenv("SLURMD_NODENAME"); name != nullptr && *name != '\0')
    return name;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) return "";
  std::string name = host;
  return name.substr(0, name.find('.'));
}

std::string JoinedDefaultChecks() {
  std::string list;
  for (const std::string& check : DefaultDrainChecks()) list += (list.empty() ? "" : ",") + check;
  return list;
}

StatusOr<Duration> FlagDuration(const std::string& flag, const std::string& text, bool zero_ok) {
  StatusOr<Duration> d = ParseDuration(text);
  if (!d.ok()) return Status::InvalidArgument(flag + ": " + d.status().message());
  if (*d < Duration::zero() || (!zero_ok && *d == Duration::zero()))
    return Status::InvalidArgument(flag + " must be " + (zero_ok ? "0 or more" : "positive"));
  return d;
}

bool ValidNodeName(const std::string& name) {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return false;
  return true;
}

}  // namespace

SlurmCheckFlagValues::SlurmCheckFlagValues() {
  const SlurmCheckOptions check;
  const ScontrolOptions scontrol_defaults;
  node = DefaultNodeName();
  // The daemon's local socket where it is (Slurm runs the check with an empty environment, so
  // the default path), else its default TCP address.
  daemon = IsUnixSocket(defaults::kApiSocket) ? std::string("unix:") + defaults::kApiSocket
                                              : DiagnoseOptions::DefaultDaemonText();
  drain_on = JoinedDefaultChecks();
  hold_down = FormatDuration(check.policy.hold_down);
  budget = check.policy.budget.ToString();
  scontrol = scontrol_defaults.scontrol;
  sinfo = scontrol_defaults.sinfo;
  if (const char* conf = std::getenv("SLURM_CONF"); conf != nullptr) slurm_conf = conf;
  call_timeout = FormatDuration(scontrol_defaults.call_timeout);
  deadline = FormatDuration(SlurmCheckSetup{}.deadline);
  state_file = check.state_file;
  metrics_file = check.metrics_file;
}

void AddSlurmCheckFlags(CLI::App& cmd, SlurmCheckFlagValues& v) {
  auto option = [&cmd](const char* flag, std::string& value, const char* help, const char* env) {
    cmd.add_option(flag, value, help)->envname(env)->capture_default_str();
  };
  option("--node", v.node, "This node's Slurm name (default: SLURMD_NODENAME, else the host name)",
         "ROCEWATCH_NODE");
  option("--daemon", v.daemon,
         "The local daemon whose live findings are used (unix:PATH or http://HOST:PORT), or none; "
         "where it "
         "does not answer, the one-shot checks decide",
         "ROCEWATCH_DAEMON");
  option("--drain-on", v.drain_on, "Comma-separated check ids whose findings drain the node",
         "ROCEWATCH_DRAIN_ON");
  option("--hold-down", v.hold_down,
         "How long the findings must stay clear before a node rocewatch drained is resumed",
         "ROCEWATCH_HOLD_DOWN");
  option("--budget", v.budget,
         "Most nodes of the scope rocewatch holds drained (a count, or a percentage such as 10%); "
         "beyond it the check refuses and reports a fabric problem",
         "ROCEWATCH_BUDGET");
  option("--budget-scope", v.budget_scope, "partition (the node's partitions) or cluster",
         "ROCEWATCH_BUDGET_SCOPE");
  cmd.add_flag("--requeue-collapsed", v.requeue_collapsed,
               "When draining for a collapsed rail, requeue the Slurm jobs that use it")
      ->envname("ROCEWATCH_REQUEUE_COLLAPSED");
  cmd.add_flag("--dry-run", v.dry_run, "Decide and print; change nothing (Slurm, record, metrics)")
      ->envname("ROCEWATCH_DRY_RUN");
  option("--scontrol", v.scontrol, "The scontrol program (absolute path)", "ROCEWATCH_SCONTROL");
  option("--sinfo", v.sinfo, "The sinfo program (absolute path)", "ROCEWATCH_SINFO");
  option("--slurm-conf", v.slurm_conf,
         "slurm.conf for scontrol and sinfo (default: SLURM_CONF, else Slurm's own default)",
         "ROCEWATCH_SLURM_CONF");
  option("--call-timeout", v.call_timeout, "Deadline of each scontrol or sinfo call",
         "ROCEWATCH_CALL_TIMEOUT");
  option("--deadline", v.deadline,
         "Deadline of the whole run (Slurm kills a health check after 60 s)", "ROCEWATCH_DEADLINE");
  option("--state-file", v.state_file,
         "The check's record: hold-down, action counts, last actions (empty: none)",
         "ROCEWATCH_SLURM_CHECK_STATE_FILE");
  option("--metrics-file", v.metrics_file,
         "Prometheus text file for node_exporter's textfile collector (empty: none)",
         "ROCEWATCH_METRICS_FILE");
  cmd.add_option("--kubelet-socket", v.kubelet_socket, "The kubelet pod-resources socket, or none")
      ->envname("ROCEWATCH_KUBELET_SOCKET");
}

StatusOr<SlurmCheckSetup> SlurmCheckSetupFromFlags(const SlurmCheckFlagValues& v,
                                                   const CommonOptions& common) {
  SlurmCheckSetup setup;
  SlurmCheckOptions& check = setup.check;
  if (!ValidNodeName(v.node))
    return Status::InvalidArgument("--node: '" + PrintableAscii(v.node, 64) +
                                   "' is not a Slurm node name (letters, digits, - _ .)");
  check.node = v.node;
  DiagnoseOptions& diagnose = check.diagnose;
  diagnose.common = common;
  diagnose.optics = false;                  // I2C reads are slow; optics do not drain
  diagnose.link_window = Duration::zero();  // no wait: the daemon rates links
  diagnose.consumers.kubelet_socket = v.kubelet_socket.empty() ? "none" : v.kubelet_socket;
  diagnose.daemon_text = v.daemon;
  if (v.daemon == "none") {
    diagnose.daemon.reset();
  } else {
    StatusOr<HttpUrl> url = ParseHttpUrl(v.daemon);
    if (!url.ok())
      return Status::InvalidArgument("--daemon: " + url.status().message() +
                                     " (use http://HOST:PORT or none)");
    diagnose.daemon = *url;
  }
  check.policy.drain_checks.clear();
  for (const std::string& id : SplitFields(v.drain_on, ", ")) check.policy.drain_checks.insert(id);
  StatusOr<Duration> hold = FlagDuration("--hold-down", v.hold_down, true);
  if (!hold.ok()) return hold.status();
  check.policy.hold_down = *hold;
  StatusOr<DrainBudget> budget = ParseDrainBudget(v.budget);
  if (!budget.ok()) return Status::InvalidArgument("--budget: " + budget.status().message());
  check.policy.budget = *budget;
  if (v.budget_scope != "partition" && v.budget_scope != "cluster")
    return Status::InvalidArgument("--budget-scope must be partition or cluster");
  check.budget_per_partition = v.budget_scope == "partition";
  check.policy.requeue_collapsed = v.requeue_collapsed;
  check.dry_run = v.dry_run;
  check.state_file = v.state_file;
  check.metrics_file = v.metrics_file;
  for (const auto* program : {&v.scontrol, &v.sinfo})
    if (program->empty() || program->front() != '/')
      return Status::InvalidArgument(
          "--scontrol and --sinfo need absolute paths (a health "
          "check runs without PATH)");
  setup.scontrol.scontrol = v.scontrol;
  setup.scontrol.sinfo = v.sinfo;
  setup.scontrol.slurm_conf = v.slurm_conf;
  StatusOr<Duration> call = FlagDuration("--call-timeout", v.call_timeout, false);
  if (!call.ok()) return call.status();
  setup.scontrol.call_timeout = *call;
  StatusOr<Duration> deadline = FlagDuration("--deadline", v.deadline, false);
  if (!deadline.ok()) return deadline.status();
  if (*deadline > std::chrono::seconds(55))
    return Status::InvalidArgument("--deadline must stay under Slurm's 60 s health-check limit");
  setup.deadline = *deadline;
  diagnose.daemon_timeout = std::min(diagnose.daemon_timeout, *deadline / 4);
  return setup;
}

}  // namespace rocewatch
