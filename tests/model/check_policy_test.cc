// The one severity table (model/check_policy.h) against what uses it: the findings built in lib/,
// the alert rules operators install and the table in docs/alerts.md. Reads the source tree.

#include "model/check_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace rocewatch {
namespace {

std::string ReadSource(const std::string& relative) {
  std::ifstream in(std::string(ROCEWATCH_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// One `- alert:` rule of the rules file: its severity label and `for:` in seconds.
struct AlertRule {
  std::string severity;
  int for_seconds = 0;
};

int DurationSeconds(const std::string& text) {
  const int value = std::stoi(text);
  switch (text.back()) {
    case 's':
      return value;
    case 'm':
      return value * 60;
    case 'h':
      return value * 3600;
  }
  return -1;
}

// Line-based reading of deploy/prometheus/rocewatch-rules.yaml (the project adds no YAML
// library): a rule starts at "- alert: NAME"; its `for:` and `severity:` keys follow.
std::multimap<std::string, AlertRule> ParseAlertRules(const std::string& yaml) {
  std::multimap<std::string, AlertRule> rules;
  static const std::regex alert_line(R"(^\s*- alert: (\S+)\s*$)");
  static const std::regex other_rule(R"(^\s*- record: )");
  static const std::regex for_line(R"(^\s+for: (\d+[smh])\s*$)");
  static const std::regex severity_line(R"(^\s+severity: (\S+)\s*$)");
  std::istringstream lines(yaml);
  std::string line, name;
  AlertRule rule;
  auto flush = [&] {
    if (!name.empty()) rules.emplace(name, rule);
    name.clear();
    rule = AlertRule{};
  };
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, m, alert_line)) {
      flush();
      name = m[1];
    } else if (std::regex_search(line, other_rule)) {
      flush();
    } else if (!name.empty() && std::regex_match(line, m, for_line)) {
      rule.for_seconds = DurationSeconds(m[1]);
    } else if (!name.empty() && std::regex_match(line, m, severity_line)) {
      rule.severity = m[1];
    }
  }
  flush();
  return rules;
}

class CheckPolicyTest : public ::testing::Test {
 protected:
  std::multimap<std::string, AlertRule> rules_ =
      ParseAlertRules(ReadSource("deploy/prometheus/rocewatch-rules.yaml"));
};

TEST_F(CheckPolicyTest, EveryCheckIsListedOnce) {
  std::set<std::string_view> seen;
  for (const CheckPolicy& p : CheckPolicies()) {
    EXPECT_TRUE(seen.insert(p.check).second) << p.check << " is listed twice";
    EXPECT_TRUE(!p.alert.empty() || !p.why.empty()) << p.check << ": no alert and no reason why";
    EXPECT_EQ(FindCheckPolicy(p.check), &p);
  }
  EXPECT_EQ(FindCheckPolicy("no_such_check"), nullptr);
  EXPECT_EQ(SeverityOf("gid_drift"), Severity::kCritical);
}

TEST_F(CheckPolicyTest, TheRulesFileIsRead) {
  ASSERT_GT(rules_.size(), 20u);
  ASSERT_EQ(rules_.count("RoceGidDrift"), 1u);
  EXPECT_EQ(rules_.find("RoceGidDrift")->second.severity, "critical");
  EXPECT_EQ(rules_.find("RoceGidDrift")->second.for_seconds, 30);
}

TEST_F(CheckPolicyTest, EachAlertCarriesTheSeverityOfItsFinding) {
  for (const CheckPolicy& p : CheckPolicies()) {
    if (p.alert.empty()) continue;
    auto [begin, end] = rules_.equal_range(std::string(p.alert));
    ASSERT_NE(begin, end) << p.check << ": alert " << p.alert << " is not in the rules file";
    for (auto it = begin; it != end; ++it)
      EXPECT_EQ(it->second.severity, SeverityLabel(p.severity))
          << "alert " << p.alert << " pages finding " << p.check << " at another severity";
  }
}

TEST_F(CheckPolicyTest, ACriticalFindingPagesWithinTwoMinutes) {
  // `for:` up to 1 minute, plus a rule evaluation (15-30 s) and the critical route's group_wait
  // (10 s): under 2 minutes from the finding to PagerDuty.
  for (const CheckPolicy& p : CheckPolicies()) {
    if (p.severity != Severity::kCritical || p.alert.empty()) continue;
    auto [begin, end] = rules_.equal_range(std::string(p.alert));
    for (auto it = begin; it != end; ++it)
      EXPECT_LE(it->second.for_seconds, 60) << p.alert << " (" << p.check << ") waits too long";
  }
  // Criticals without a finding of their own (cluster and self alerts) wait at most 2 minutes.
  for (const auto& [name, rule] : rules_) {
    if (rule.severity == "critical") {
      EXPECT_LE(rule.for_seconds, 120) << name;
    }
  }
}

// Check names as lib/ builds findings: SeverityOf("x") and SeverityOf(check_id::kX), the
// `f.check = ...` literals and the traffic detector's kinds. Fails on a literal severity.
TEST_F(CheckPolicyTest, EveryFindingInLibTakesItsSeverityFromTheTable) {
  std::map<std::string, std::string> check_ids;  // kName -> "name"
  static const std::regex id(R"re(inline constexpr char (k\w+)\[\] =\s*"(\w+)";)re");
  for (const char* header : {"lib/commands/diagnose/configuration_checks.h",
                             "lib/features/inventory/read_failure_checks.h",
                             "lib/commands/diagnose/persisted_state_checks.h"}) {
    const std::string ids = ReadSource(header);
    for (std::sregex_iterator it(ids.begin(), ids.end(), id), end; it != end; ++it)
      check_ids[(*it)[1]] = (*it)[2];
  }
  ASSERT_GT(check_ids.size(), 10u);

  static const std::regex literal_severity(
      R"(\{\s*Severity::k\w+,\s*("|check_id::)|f\.severity\s*=[^=][^;]*Severity::k)");
  static const std::regex severity_of(R"re(SeverityOf\(\s*(?:"(\w+)"|check_id::(k\w+))\s*\))re");
  static const std::regex check_assignment(R"(f\.check\s*=\s*([^;]+);)");
  static const std::regex kind(R"re(static const Kind k\w+ = \{\s*"(\w+)")re");
  static const std::regex quoted(R"re("(\w+)")re");
  std::set<std::string> used;
  size_t files = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(ROCEWATCH_SOURCE_DIR) + "/lib")) {
    if (entry.path().extension() != ".cc") continue;
    ++files;
    std::ifstream in(entry.path());
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    const std::string file = entry.path().filename().string();
    EXPECT_FALSE(std::regex_search(text, literal_severity))
        << file << " builds a finding with a literal severity: use SeverityOf(check)";
    for (std::sregex_iterator it(text.begin(), text.end(), severity_of), end; it != end; ++it) {
      if ((*it)[1].matched) {
        used.insert((*it)[1]);
      } else {
        ASSERT_TRUE(check_ids.count((*it)[2])) << file << ": unknown " << (*it)[2];
        used.insert(check_ids[(*it)[2]]);
      }
    }
    for (std::sregex_iterator it(text.begin(), text.end(), check_assignment), end; it != end;
         ++it) {
      const std::string rhs = (*it)[1];
      for (std::sregex_iterator q(rhs.begin(), rhs.end(), quoted); q != end; ++q)
        used.insert((*q)[1]);
    }
    for (std::sregex_iterator it(text.begin(), text.end(), kind), end; it != end; ++it)
      used.insert((*it)[1]);
  }
  ASSERT_GT(files, 100u);
  for (const std::string& check : used)
    EXPECT_NE(FindCheckPolicy(check), nullptr) << "check " << check << " is not in the table";
  for (const CheckPolicy& p : CheckPolicies())
    EXPECT_TRUE(used.count(std::string(p.check))) << p.check << " is in the table, not in lib/";
}

TEST_F(CheckPolicyTest, DocsListTheTable) {
  const std::string doc = ReadSource("docs/alerts.md");
  for (const CheckPolicy& p : CheckPolicies()) {
    const std::string row = "| `" + std::string(p.check) + "` | " + SeverityLabel(p.severity) +
                            " | " + (p.alert.empty() ? "none" : std::string(p.alert)) + " |";
    EXPECT_THAT(doc, ::testing::HasSubstr(row)) << "docs/alerts.md lacks the row of " << p.check;
  }
}

}  // namespace
}  // namespace rocewatch
