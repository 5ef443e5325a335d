#pragma once
// `rocewatch diagnose --npd`: the report reduced to node-problem-detector's custom plugin protocol
// (deploy/npd): an exit status (0 OK, 1 NonOK, 2 Unknown) and one line on stdout, which NPD makes
// the message of the RDMANetworkProblem NodeCondition.
//
// Only a critical finding makes the node NonOK: a condition set to True can cordon or drain the
// node (remediation controllers act on it), which a configuration risk (a warning) must not do.
// Warnings still reach the condition's message.

#include <string>
#include <string_view>
#include <vector>

#include "model/finding.h"

namespace rocewatch {

inline constexpr int kNpdOk = 0;
inline constexpr int kNpdNonOk = 1;
inline constexpr int kNpdUnknown = 2;

inline constexpr std::string_view kNpdHealthyMessage = "RDMA network healthy";

struct NpdVerdict {
  int exit_status = kNpdOk;
  // One line, no newline: the most severe warning or critical finding as
  // "<severity> <check> on <subject>: <message>", with " (+N more)" when other warnings or
  // critical findings exist; kNpdHealthyMessage when there is none. Among findings of the same
  // severity the line names the cause before its consequences: the check that comes first in the
  // severity table (model/check_policy.h, ordered so: a GID drift before the address, traffic and
  // stale NCCL pin findings it explains), then the smallest subject, then the first given. A check
  // missing from the table comes after every listed one. The order of `findings` (which depends
  // on what the host and the daemon happened to list first) never decides it.
  std::string message;

  bool operator==(const NpdVerdict&) const = default;
};

NpdVerdict NpdVerdictFor(const std::vector<Finding>& findings);

// Diagnose could not look (unreadable host root, no sysfs): Unknown, with the reason.
NpdVerdict NpdCouldNotRun(std::string_view reason);

}  // namespace rocewatch
