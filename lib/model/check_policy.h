#pragma once
// The one severity table: every finding check rocewatch produces (daemon, diagnose, --npd), its
// severity, and the alert of deploy/prometheus/rocewatch-rules.yaml that pages it, or none and
// why. Findings take their severity from here (SeverityOf); tests/model/check_policy_test.cc
// fails when a finding in lib/ is built with a literal severity or a check missing here, when an
// alert named here is missing from the rules or carries another `severity` label, and when the
// alert of a critical check waits longer than 1 minute (`for:`) before it fires.
// docs/alerts.md ("One severity table") is this table for readers.
//
// The NodeCondition of node-problem-detector (deploy/npd) follows from it too: `diagnose --npd`
// reports a problem for any critical finding (diagnose/npd_verdict.h). The table's order is a
// contract as well: causes before their consequences (a GID drift before the missing address,
// collapse and stale NCCL pin it explains); the NPD line names the first of equal severity.

#include <span>
#include <string_view>

#include "model/finding.h"

namespace rocewatch {

struct CheckPolicy {
  std::string_view check;  // Finding::check
  Severity severity;
  std::string_view alert;  // the alert that pages it; empty: no alert
  std::string_view why;    // why none, or what else to know about the pairing
};

std::span<const CheckPolicy> CheckPolicies();

// nullptr for a check not in the table.
const CheckPolicy* FindCheckPolicy(std::string_view check);

// The table's severity of `check`. REQUIRES: the check is in the table (the test above checks
// every call in lib/); a check missing from it reads as a warning.
Severity SeverityOf(std::string_view check);

}  // namespace rocewatch
