// Checks of the NCCL settings of running jobs against the node's GID tables and against the
// link flaps the fabric is known to have (NCCL src/transport/net_ib*; the MegaScale
// flap incidents, docs/diagnose.md).

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/duration.h"
#include "diagnose/check_groups.h"
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

void CheckGidIndex(const ConfigurationCheckInput& input, const ProcessGroup& group,
                   std::vector<Finding>& out) {
  const NcclSettings& s = group.settings();
  if (!s.gid_index || *s.gid_index < 0) return;
  uint32_t index = static_cast<uint32_t>(*s.gid_index);
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
      std::string problem = PortName(device.name, port.number) + " index " + std::to_string(index) +
                            " " + (at == nullptr ? "is empty" : "holds " + DescribeGid(*at));
      problem += fitting.empty()
                     ? " and the port has no " + type + " " + family + " GID"
                     : " (" + type + " " + family + " GID at index " + JoinList(fitting) + ")";
      problems.push_back(problem);
    }
  }
  if (problems.empty()) return;
  out.push_back(
      {Severity::kCritical, check_id::kNcclGidIndexWithoutRoceV2Gid, group.Subject(),
       Setting(s, "NCCL_IB_GID_INDEX") + " is pinned but does not hold a " + type + " " + family +
           " GID (" + Setting(s, "NCCL_IB_ADDR_FAMILY", "AF_INET") + ", " +
           Setting(s, "NCCL_IB_HCA", "all devices") + "): " + JoinList(problems, 4) +
           ". New connections of this job use the wrong or an empty GID and fail or hang.",
       "Restart the job without NCCL_IB_GID_INDEX (NCCL >= 2.21.5 picks the right GID per "
       "connection) or with the index that holds the GID on every rail; then make the GID stay "
       "put (keep RNIC addresses through carrier loss) so a pin cannot go stale again."});
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

EffectiveSetting EffectiveTimeout(const NcclSettings& s,
                                  const std::optional<NcclVersion>& version) {
  if (s.timeout) return {*s.timeout, Setting(s, "NCCL_IB_TIMEOUT")};
  if (!version) return {20, Setting(s, "NCCL_IB_TIMEOUT", "20 assumed: NCCL >= 2.23's default")};
  const long long value = NcclDefaultIbTimeout(*version);
  return {
      value,
      Setting(s, "NCCL_IB_TIMEOUT",
              ("default " + std::to_string(value) + " of NCCL " + version->ToString()).c_str())};
}

void CheckTimeout(const ConfigurationCheckInput& input, const ProcessGroup& group,
                  std::vector<Finding>& out) {
  const NcclSettings& s = group.settings();
  const std::optional<NcclVersion> version = ParseNcclVersion(group.nccl_version());
  // Both unset and the version unknown: NCCL's default cannot be told (docs/diagnose.md).
  if (!s.timeout && !s.retry_count && !version) return;
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
    out.push_back({Severity::kWarning, check_id::kNcclTimeoutBelowFlap, group.Subject(),
                   evidence + ", shorter than a link flap of " +
                       FormatDuration(input.flap_ride_through) +
                       " that the fabric must ride out: one flap kills the job's connections.",
                   remedy});
    return;
  }
  if (s.timeout && s.retry_count) return;  // set explicitly, and long enough
  out.push_back({Severity::kInfo, check_id::kNcclTimeoutDefault, group.Subject(),
                 evidence + ", enough for a link flap of " +
                     FormatDuration(input.flap_ride_through) +
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
      {Severity::kWarning, check_id::kNcclHcaAbsentDevice, group.Subject(),
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
  out.push_back({Severity::kWarning, check_id::kNcclInvalidSetting, group.Subject(),
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
    CheckTimeout(input, group, out);
    CheckHcaNamesDevices(input, group, out);
    CheckInvalid(group, out);
  }
  const std::vector<int>& unreadable = input.nccl->unreadable_pids;
  if (unreadable.empty()) return;
  std::vector<std::string> pids;
  for (int pid : unreadable) pids.push_back(std::to_string(pid));
  out.push_back(
      {Severity::kInfo, check_id::kNcclEnvironmentUnreadable, "processes",
       "Could not read /proc/<pid>/environ or /proc/<pid>/fd of " +
           std::to_string(unreadable.size()) + " process" + (unreadable.size() > 1 ? "es" : "") +
           " (pids " + JoinList(pids, 10) +
           "; permission denied): NCCL settings of jobs among them were not checked.",
       "Run `rocewatch diagnose` as root (or with CAP_SYS_PTRACE; in a pod: hostPID and the "
       "host's /proc) to check every job."});
}

}  // namespace rocewatch
