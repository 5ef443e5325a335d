#pragma once
// What a test compares of a list of findings: their check names, alone or with their subjects.

#include <string>
#include <vector>

#include "model/finding.h"

namespace rocewatch {

// The check of each finding, in order ("port_not_active").
inline std::vector<std::string> CheckNames(const std::vector<Finding>& findings) {
  std::vector<std::string> names;
  for (const Finding& f : findings) names.push_back(f.check);
  return names;
}

// The check and subject of each finding, in order ("lldp_neighbor_absent@eth2").
inline std::vector<std::string> ChecksWithSubjects(const std::vector<Finding>& findings) {
  std::vector<std::string> names;
  for (const Finding& f : findings) names.push_back(f.check + "@" + f.subject);
  return names;
}

}  // namespace rocewatch
