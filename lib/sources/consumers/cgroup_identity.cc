#include "consumers/cgroup_identity.h"

#include <cctype>
#include <vector>

#include "core/text.h"

namespace rocewatch {
namespace {

bool IsHex(std::string_view text) {
  for (char c : text)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return !text.empty();
}

// "1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e" or with '_' (systemd escapes '-' in unit names).
std::string PodUid(std::string_view text) {
  if (text.size() != 36) return "";
  std::string uid(text);
  for (size_t i = 0; i < uid.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash) {
      if (uid[i] != '-' && uid[i] != '_') return "";
      uid[i] = '-';
    } else if (!std::isxdigit(static_cast<unsigned char>(uid[i]))) {
      return "";
    }
  }
  return ToLower(uid);
}

// The pod UID of a component "pod<uid>" or "kubepods-<qos>-pod<uid>.slice".
std::string PodUidOf(std::string_view component) {
  if (component.size() > 6 && component.substr(component.size() - 6) == ".slice") {
    component.remove_suffix(6);
  }
  size_t at = component.rfind("pod");
  if (at == std::string_view::npos) return "";
  if (at != 0 && component[at - 1] != '-') return "";
  return PodUid(component.substr(at + 3));
}

// The container id of a component "<runtime>-<id>.scope" or a bare "<id>".
std::string ContainerIdOf(std::string_view component) {
  if (component.size() > 6 && component.substr(component.size() - 6) == ".scope") {
    component.remove_suffix(6);
    size_t dash = component.rfind('-');
    if (dash == std::string_view::npos) return "";
    std::string_view runtime = component.substr(0, dash);
    if (runtime.find("conmon") != std::string_view::npos) return "";  // CRI-O's monitor
    component = component.substr(dash + 1);
  }
  if (component.size() != 64 || !IsHex(component)) return "";
  return ToLower(component);
}

}  // namespace

CgroupIdentity ParseCgroupIdentity(std::string_view content) {
  CgroupIdentity identity;
  for (std::string_view line : SplitLines(content)) {
    if (Trim(line).empty()) continue;
    size_t first = line.find(':');
    size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos || line.substr(second + 1).empty() ||
        line[second + 1] != '/') {
      ++identity.malformed_lines;
      continue;
    }
    std::vector<std::string> components = SplitFields(line.substr(second + 1), "/");
    bool in_kubepods = false;
    bool in_slurm = false;
    for (const std::string& component : components) {
      if (component.rfind("kubepods", 0) == 0 || component.find("-kubepods") != std::string::npos)
        in_kubepods = true;
      // "slurm", "slurm_<node>" (v1); "slurmstepd.scope", "<node>_slurmstepd.scope" (v2, the
      // latter with multiple slurmd per host).
      if (component.rfind("slurm", 0) == 0 ||
          component.find("_slurmstepd.scope") != std::string::npos)
        in_slurm = true;
      if (in_kubepods && identity.pod_uid.empty()) identity.pod_uid = PodUidOf(component);
      if (in_slurm && identity.slurm_job.empty() && component.rfind("job_", 0) == 0) {
        long long id = 0;
        if (ParseInteger(std::string_view(component).substr(4), &id) && id >= 0)
          identity.slurm_job = std::to_string(id);
      }
    }
    if (identity.container_id.empty() && !components.empty()) {
      identity.container_id = ContainerIdOf(components.back());
    }
  }
  return identity;
}

}  // namespace rocewatch
