// Checks of the NCCL settings of running jobs against the node's GID tables and against the
// link flaps the fabric is known to have (NCCL src/transport/net_ib*; the MegaScale
// flap incidents, docs/diagnose.md).

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/duration.h"
#include "diagnose/check_groups.h"
#include "model/check_policy.h"
#include "model/gid.h"
#include "nccl/nccl_version.h"

namespace rocewatch {
namespace {

// Processes of one job usually share their settings: one finding per distinct setting set.
struct ProcessGroup {
  std::vector<const NcclProcess*> members;
  std::string Subject() const {
    std::vector<std::string> pids;
    for (const NcclProcess* p : members) pids.push_back(std::to_string(p->pid));
    std::string comm = members.front()->comm.empty() ? "?" : members.front()->comm;
    const std::string& job = members.front()->job;
    return (job.empty() ? "" : "job " + job + ": ") + (members.size() == 1 ? "pid " : "pids ") +
           JoinList(pids, 6) + " (" + comm + ")";
  }
  const NcclSettings& settings() const { return members.front()->settings; }
  const std::string& nccl_version() const { return members.front()->nccl_version; }
};

constexpr const char* kCheckedVariables[] = {"NCCL_IB_GID_INDEX", "NCCL_IB_ADDR_FAMILY",
                                             "NCCL_IB_HCA",       "NCCL_IB_TIMEOUT",
                                             "NCCL_IB_RETRY_CNT", "NCCL_IB_ROCE_VERSION_NUM"};

std::vector<ProcessGroup> GroupBySettings(const NcclProcessScan& scan) {
  std::map<std::string, ProcessGroup> groups;
  for (const NcclProcess& p : scan.processes) {
    std::string key = p.comm + '\0' + p.nccl_version + '\0' + p.job + '\0';
    for (const char* name : kCheckedVariables) {
      auto it = p.settings.raw.find(name);
      key += it == p.settings.raw.end() ? std::string("\1") : it->second;
      key += '\0';
    }
    groups[key].members.push_back(&p);
  }
  std::vector<ProcessGroup> result;
  for (auto& [key, group] : groups) result.push_back(std::move(group));
  std::sort(result.begin(), result.end(), [](const ProcessGroup& a, const ProcessGroup& b) {
    return a.members.front()->pid < b.members.front()->pid;
  });
  return result;
}

// "NCCL_IB_TIMEOUT=18", or "NCCL_IB_RETRY_CNT unset (7)" with what NCCL uses then.
std::string Setting(const NcclSettings& s, const char* name, const char* when_unset = "") {
  auto it = s.raw.find(name);
  if (it != s.raw.end()) return std::string(name) + "=" + it->second;
  return std::string(name) + " unset" + (*when_unset ? std::string(" (") + when_unset + ")" : "");
}

bool GidFits(const GidEntry& gid, const NcclSettings& s) {
  GidType wanted = s.roce_version == 1 ? GidType::kRoceV1 : GidType::kRoceV2;
  if (gid.type != wanted) return false;
  if (s.address_family == NcclAddressFamily::kIpv4) return IsIpv4MappedGid(gid.gid);
  return !IsIpv4MappedGid(gid.gid) && !IsLinkLocalGid(gid.gid);
}

std::string DescribeGid(const GidEntry& gid) {
  std::optional<std::string> v4 = Ipv4OfGid(gid.gid);
  return std::string(GidTypeLabel(gid.type)) + " " + (v4 ? *v4 : gid.gid) +
         (gid.netdev.empty() ? "" : " on " + gid.netdev);
}

// The GID index every QP of the group uses: the pinned one, or for an empty NCCL_IB_GID_INDEX=
// the default of its NCCL version when that is a fixed index (0 before 2.21.5). nullopt: NCCL
// picks per connection, or the version that would tell is unknown.
std::optional<uint32_t> FixedGidIndex(const ProcessGroup& group) {
  const NcclSettings& s = group.settings();
  if (s.gid_index) {
    if (*s.gid_index < 0) return std::nullopt;
    return static_cast<uint32_t>(*s.gid_index);
  }
  if (!s.gid_index_empty) return std::nullopt;
  const std::optional<NcclVersion> version = ParseNcclVersion(group.nccl_version());
  if (!version || NcclDefaultGidIndex(*version) < 0) return std::nullopt;
  return static_cast<uint32_t>(NcclDefaultGidIndex(*version));
}

void CheckGidIndex(const ConfigurationCheckInput& input, const ProcessGroup& group,
                   std::vector<Finding>& out) {
  const NcclSettings& s = group.settings();
  const std::optional<uint32_t> fixed = FixedGidIndex(group);
  if (!fixed) return;
  const uint32_t index = *fixed;
  std::string family = s.address_family == NcclAddressFamily::kIpv4 ? "IPv4" : "IPv6";
  std::string type = s.roce_version == 1 ? "RoCE v1" : "RoCE v2";
  std::vector<std::string> problems;
  for (const Device& device : input.snapshot->devices) {
    for (const Port& port : device.ports) {
      if (!port.IsRoce() || !port.IsActive()) continue;
      if (s.hca && !s.hca->Selects(device.name, static_cast<int>(port.number))) continue;
      const GidEntry* at = nullptr;
      std::vector<std::string> fitting;
      for (const GidEntry& gid : port.gids) {
        if (gid.index == index) at = &gid;
        if (GidFits(gid, s)) fitting.push_back(std::to_string(gid.index));
      }
      if (at != nullptr && GidFits(*at, s)) continue;
      // An unreadable slot is unknown, not empty: not judged (read_failed names it).
      if (at == nullptr && port.GidSlotUnreadable(index)) continue;
      std::string problem = PortName(device.name, port.number) + " index " + std::to_string(index) +
                            " " + (at == nullptr ? "is empty" : "holds " + DescribeGid(*at));
      const std::string none = port.GidTableKnown() ? " and the port has no "
                                                    : " and no readable slot of the port holds a ";
      problem += fitting.empty()
                     ? none + type + " " + family + " GID"
                     : " (" + type + " " + family + " GID at index " + JoinList(fitting) + ")";
      problems.push_back(problem);
    }
  }
  if (problems.empty()) return;
  out.push_back(
      {SeverityOf(check_id::kNcclGidIndexWithoutRoceV2Gid), check_id::kNcclGidIndexWithoutRoceV2Gid,
       group.Subject(),
       Setting(s, "NCCL_IB_GID_INDEX") +
           (s.gid_index_empty ? " (empty: NCCL " + group.nccl_version() + "'s default index " +
                                    std::to_string(index) + ")"
                              : std::string()) +
           " is pinned but does not hold a " + type + " " + family + " GID (" +
           Setting(s, "NCCL_IB_ADDR_FAMILY", "AF_INET") + ", " +
           Setting(s, "NCCL_IB_HCA", "all devices") + "): " + JoinList(problems, 4) +
           ". New connections of this job use the wrong or an empty GID and fail or hang.",
       "Restart the job without NCCL_IB_GID_INDEX (NCCL >= 2.21.5 picks the right GID per "
       "connection) or with the index that holds the GID on every rail; then make the GID stay "
       "put (keep RNIC addresses through carrier loss) so a pin cannot go stale again."});
}

void CheckGidIndexEmpty(const ProcessGroup& group, std::vector<Finding>& out) {
  const NcclSettings& s = group.settings();
  if (!s.gid_index_empty) return;
  const std::optional<NcclVersion> version = ParseNcclVersion(group.nccl_version());
  std::string effect;
  if (!version) {
    effect =
        "its NCCL version is unknown: NCCL before 2.21.5 then uses index 0 (the link-local "
        "GID, RoCE v1 on mlx5) for every connection, later versions pick a GID per "
        "connection";
  } else if (NcclDefaultGidIndex(*version) >= 0) {
    effect = "NCCL " + version->ToString() + " then uses index " +
             std::to_string(NcclDefaultGidIndex(*version)) +
             " (the link-local GID, RoCE v1 on mlx5) for every connection";
  } else {
    effect = "NCCL " + version->ToString() +
             " then picks a GID per connection (harmless here, but not what the setting says, "
             "and index 0 under an NCCL before 2.21.5)";
  }
  out.push_back({SeverityOf(check_id::kNcclGidIndexEmpty), check_id::kNcclGidIndexEmpty,
                 group.Subject(),
                 "NCCL_IB_GID_INDEX is set but empty: NCCL takes an empty value as unset and "
                 "uses its default; " +
                     effect + ".",
                 "Set NCCL_IB_GID_INDEX to the index the cluster pins (the RoCE v2 IPv4 GID, "
                 "often 3) or remove it from the job's launch configuration (NCCL >= 2.21.5 "
                 "picks per connection); an empty value usually comes from a template whose "
                 "variable was not filled in."});
}

std::string FormatSeconds(Duration d) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f s", ToSeconds(d));
  return text;
}

// What NCCL uses for one of the two retransmission settings: the value set, or the default of
// the process's NCCL version. `text` says which, for the finding.
struct EffectiveSetting {
  long long value = 0;
  std::string text;
};

// REQUIRES: the timeout is set or the version known (CheckTimeoutOfUnknownVersion otherwise).
EffectiveSetting EffectiveTimeout(const NcclSettings& s,
                                  const std::optional<NcclVersion>& version) {
  if (s.timeout) return {*s.timeout, Setting(s, "NCCL_IB_TIMEOUT")};
  const long long value = NcclDefaultIbTimeout(*version);
  return {
      value,
      Setting(s, "NCCL_IB_TIMEOUT",
              ("default " + std::to_string(value) + " of NCCL " + version->ToString()).c_str())};
}

// NCCL_IB_TIMEOUT unset and the NCCL version unknown: the job runs with one of the defaults NCCL
// has had (14 before 2.14, 18 through 2.22, 20 since 2.23), which of them cannot be told.
void CheckTimeoutOfUnknownVersion(const ConfigurationCheckInput& input, const ProcessGroup& group,
                                  std::vector<Finding>& out) {
  const NcclSettings& s = group.settings();
  const long long retry = s.retry_count.value_or(kNcclDefaultIbRetryCount);
  std::vector<std::string> budgets;
  std::vector<std::string> too_short;
  struct Default {
    long long value;
    const char* versions;
  };
  static constexpr Default kDefaults[] = {
      {14, "before 2.14"}, {18, "2.14 through 2.22"}, {20, "since 2.23"}};
  for (const auto& [value, versions] : kDefaults) {
    const std::optional<Duration> budget = NcclSurvivableOutage(value, retry);
    if (!budget) continue;
    budgets.push_back(std::to_string(value) + " (" + versions + "): " + FormatSeconds(*budget));
    if (*budget < input.flap_ride_through) too_short.push_back(std::to_string(value));
  }
  out.push_back(
      {SeverityOf(check_id::kNcclTimeoutUnsetVersionUnknown),
       check_id::kNcclTimeoutUnsetVersionUnknown, group.Subject(),
       "NCCL_IB_TIMEOUT unset and the job's NCCL version unknown (statically linked, or its maps "
       "unreadable), with " +
           Setting(s, "NCCL_IB_RETRY_CNT", "default 7") +
           ": a QP gives up after the budget of whichever default its NCCL has: " +
           JoinList(budgets) +
           (too_short.empty()
                ? std::string(".")
                : "; with " + JoinList(too_short) + " one link flap of " +
                      FormatDuration(input.flap_ride_through) + " kills the job's connections."),
       "Start the job with NCCL_IB_TIMEOUT=20 or more and NCCL_IB_RETRY_CNT=7 set explicitly "
       "(MegaScale's lesson: the default changed twice), and enable the NIC's adaptive "
       "retransmission."});
}

void CheckTimeout(const ConfigurationCheckInput& input, const ProcessGroup& group,
                  std::vector<Finding>& out) {
  const NcclSettings& s = group.settings();
  const std::optional<NcclVersion> version = ParseNcclVersion(group.nccl_version());
  if (!s.timeout && !version) {
    CheckTimeoutOfUnknownVersion(input, group, out);
    return;
  }
  const EffectiveSetting timeout = EffectiveTimeout(s, version);
  const long long retry = s.retry_count.value_or(kNcclDefaultIbRetryCount);
  std::optional<Duration> budget = NcclSurvivableOutage(timeout.value, retry);
  if (!budget) return;  // timeout 0: waits forever
  const std::string evidence =
      (version ? "NCCL " + version->ToString() + ", " : std::string()) + timeout.text + " and " +
      Setting(s, "NCCL_IB_RETRY_CNT", "default 7") + ": a QP gives up after about " +
      FormatSeconds(*budget) + " without ACKs (4.096 us x 2^" + std::to_string(timeout.value) +
      " x " + std::to_string(retry) + ")";
  const std::string remedy =
      "Start the job with NCCL_IB_TIMEOUT=20 or more (each step doubles the budget; 20 with "
      "NCCL_IB_RETRY_CNT=7 rides out about 30 s) and NCCL_IB_RETRY_CNT=7, and enable the "
      "NIC's adaptive retransmission (MegaScale's fix for flap-induced NCCL timeouts).";
  if (*budget < input.flap_ride_through) {
    out.push_back({SeverityOf(check_id::kNcclTimeoutBelowFlap), check_id::kNcclTimeoutBelowFlap,
                   group.Subject(),
                   evidence + ", shorter than a link flap of " +
                       FormatDuration(input.flap_ride_through) +
                       " that the fabric must ride out: one flap kills the job's connections.",
                   remedy});
    return;
  }
  if (s.timeout && s.retry_count) return;  // set explicitly, and long enough
  out.push_back(
      {SeverityOf(check_id::kNcclTimeoutDefault), check_id::kNcclTimeoutDefault, group.Subject(),
       evidence + ", enough for a link flap of " + FormatDuration(input.flap_ride_through) +
           ", but only by NCCL's default: another NCCL version changes it (14 before "
           "2.14, 18 through 2.22, 20 from 2.23).",
       "Set NCCL_IB_TIMEOUT and NCCL_IB_RETRY_CNT explicitly in the job's launch "
       "configuration (MegaScale's lesson), e.g. NCCL_IB_TIMEOUT=20 "
       "NCCL_IB_RETRY_CNT=7."});
}

void CheckHcaNamesDevices(const ConfigurationCheckInput& input, const ProcessGroup& group,
                          std::vector<Finding>& out) {
  const NcclSettings& s = group.settings();
  if (!s.hca || s.hca->exclude) return;  // excluding an absent device is harmless
  std::vector<std::string> absent;
  for (const NcclHcaEntry& entry : s.hca->entries) {
    bool device_found = false, port_found = false;
    for (const Device& device : input.snapshot->devices) {
      if (!s.hca->Names(entry, device.name)) continue;
      device_found = true;
      for (const Port& port : device.ports)
        if (!entry.port || static_cast<int>(port.number) == *entry.port) port_found = true;
    }
    if (!device_found) {
      absent.push_back(entry.device + (s.hca->exact ? "" : "*"));
    } else if (!port_found) {
      absent.push_back(entry.device + ":" + std::to_string(*entry.port) + " (no such port)");
    }
  }
  if (absent.empty()) return;
  std::vector<std::string> present;
  for (const Device& device : input.snapshot->devices) present.push_back(device.name);
  out.push_back(
      {SeverityOf(check_id::kNcclHcaAbsentDevice), check_id::kNcclHcaAbsentDevice, group.Subject(),
       Setting(s, "NCCL_IB_HCA") + " names " + JoinList(absent) +
           ", absent on this node (devices: " +
           (present.empty() ? std::string("none") : JoinList(present)) +
           "): the job runs on fewer rails than intended, or fails to start on this node.",
       "Fix NCCL_IB_HCA in the job's launch configuration to this node's device names (they can "
       "differ between node types), or find out why the device is missing (driver, firmware, "
       "PCIe)."});
}

void CheckInvalid(const ProcessGroup& group, std::vector<Finding>& out) {
  const NcclSettings& s = group.settings();
  if (s.invalid.empty()) return;
  out.push_back({SeverityOf(check_id::kNcclInvalidSetting), check_id::kNcclInvalidSetting,
                 group.Subject(),
                 "NCCL ignores " + JoinList(s.invalid) +
                     " (not a valid value) and uses its default instead: the job does not run "
                     "with the setting its owner intended.",
                 "Fix the value in the job's launch configuration (NCCL_IB_GID_INDEX: -1 or an "
                 "index; NCCL_IB_TIMEOUT: 1-31; NCCL_IB_RETRY_CNT: 0-7; NCCL_IB_ADDR_FAMILY: "
                 "AF_INET or AF_INET6; NCCL_IB_ROCE_VERSION_NUM: 1 or 2)."});
}

}  // namespace

void CheckNcclSettings(const ConfigurationCheckInput& input, std::vector<Finding>& out) {
  if (input.nccl == nullptr) return;
  for (const ProcessGroup& group : GroupBySettings(*input.nccl)) {
    CheckGidIndex(input, group, out);
    CheckGidIndexEmpty(group, out);
    CheckTimeout(input, group, out);
    CheckHcaNamesDevices(input, group, out);
    CheckInvalid(group, out);
  }
  const std::vector<int>& unreadable = input.nccl->unreadable_pids;
  if (unreadable.empty()) return;
  std::vector<std::string> pids;
  for (int pid : unreadable) pids.push_back(std::to_string(pid));
  out.push_back(
      {SeverityOf(check_id::kNcclEnvironmentUnreadable), check_id::kNcclEnvironmentUnreadable,
       "processes",
       "Could not read /proc/<pid>/environ or /proc/<pid>/fd of " +
           std::to_string(unreadable.size()) + " process" + (unreadable.size() > 1 ? "es" : "") +
           " (pids " + JoinList(pids, 10) +
           "; permission denied): NCCL settings of jobs among them were not checked.",
       "Run `rocewatch diagnose` as root (or with CAP_SYS_PTRACE; in a pod: hostPID and the "
       "host's /proc) to check every job."});
}

}  // namespace rocewatch
