// Metric and label names are an interface: alert rules, dashboards and users depend on them.
// docs/metrics.md is the documented list; docs/contract.md is the promise (every metric there must
// be documented in metrics.md with its labels). The real daemon's exposition must match metrics.md.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "slurm_check/remediation_metrics.h"
#include "support/daemon_process.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using LabelSets = std::map<std::string, std::set<std::string>>;  // metric -> label names

constexpr char kRemediationPrefix[] = "rocewatch_remediation_";

// Rows of markdown tables whose first cell is a `rocewatch_*` name and third cell the labels.
LabelSets DocumentedMetrics(const std::string& path) {
  std::ifstream in(path);
  LabelSets metrics;
  std::string line;
  static const std::regex row(R"(^\|\s*`(rocewatch_[a-z_]+)`\s*\|[^|]*\|([^|]*)\|)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    std::set<std::string>& labels = metrics[m[1]];
    std::string cell = m[2];
    static const std::regex label(R"([a-z_]+)");
    for (auto it = std::sregex_iterator(cell.begin(), cell.end(), label);
         it != std::sregex_iterator(); ++it)
      labels.insert(it->str());
  }
  return metrics;
}

// Families declared in the exposition, with the label names seen on their samples.
LabelSets ExposedMetrics(const std::string& exposition) {
  LabelSets metrics;
  std::istringstream in(exposition);
  std::string line;
  static const std::regex type(R"(^# TYPE (rocewatch_[a-z_]+) )");
  static const std::regex sample(R"(^(rocewatch_[a-z_]+?)(_bucket|_sum|_count)?(\{[^}]*\})? )");
  static const std::regex label_name(R"(([a-z_]+)=")");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, type)) {
      metrics[m[1]];
    } else if (std::regex_search(line, m, sample)) {
      std::string name = m[1];
      if (!metrics.count(name)) name += m[2];  // a counter/gauge whose name ends in _count...
      std::string labels = m[3];
      for (auto it = std::sregex_iterator(labels.begin(), labels.end(), label_name);
           it != std::sregex_iterator(); ++it)
        if ((*it)[1] != "le") metrics[name].insert((*it)[1]);
    }
  }
  return metrics;
}

TEST(MetricNames, TheExpositionMatchesTheDocsAndTheContract) {
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", ExampleEightRailNode()).ok());
  auto daemon = DaemonProcess::Start(
      {"--host-root", dir.path(), "--state-file", "", "--expected-gid-index", "3"});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  auto scraped = (*daemon)->Scrape();
  ASSERT_TRUE(scraped.ok());
  const LabelSets exposed = ExposedMetrics(*scraped);
  const LabelSets documented =
      DocumentedMetrics(std::string(ROCEWATCH_SOURCE_DIR) + "/docs/metrics.md");
  ASSERT_GE(documented.size(), 30u);

  for (const auto& [name, labels] : exposed) {
    auto doc = documented.find(name);
    ASSERT_NE(doc, documented.end()) << name << " is exposed but not in docs/metrics.md";
    for (const std::string& label : labels)
      EXPECT_TRUE(doc->second.count(label)) << name << " has undocumented label " << label;
  }
  for (const auto& [name, labels] : documented) {
    if (name.rfind(kRemediationPrefix, 0) == 0) continue;  // the Slurm check's file: below
    auto seen = exposed.find(name);
    ASSERT_NE(seen, exposed.end()) << name << " is documented but not exposed";
    for (const std::string& label : seen->second) EXPECT_TRUE(labels.count(label)) << name;
  }

  const std::string contract_path = std::string(ROCEWATCH_SOURCE_DIR) + "/docs/contract.md";
  ASSERT_TRUE(std::ifstream(contract_path).good()) << "no " << contract_path;
  const LabelSets promised = DocumentedMetrics(contract_path);
  ASSERT_GT(promised.size(), 20u);
  for (const auto& [name, labels] : promised) {
    auto doc = documented.find(name);
    ASSERT_NE(doc, documented.end()) << name << " is in the contract but not in docs/metrics.md";
    for (const std::string& label : labels)
      EXPECT_TRUE(doc->second.count(label)) << name << ": contract label " << label << " missing";
  }
}

// The Slurm health check's metrics are not the daemon's: they are the text file it writes for
// node_exporter (slurm_check/remediation_metrics.h), which must match the same page.
TEST(MetricNames, TheSlurmCheckMetricsFileMatchesTheDocs) {
  RemediationRecord record;
  record.last_budget = {true, 4, 1, 2};
  record.Note({1, "n1", "drain", "gid_drift", "evidence"});
  const LabelSets exposed = ExposedMetrics(RemediationMetricsText(record, {"n1", true, true}));
  const LabelSets documented =
      DocumentedMetrics(std::string(ROCEWATCH_SOURCE_DIR) + "/docs/metrics.md");
  size_t documented_here = 0;
  for (const auto& [name, labels] : documented) {
    if (name.rfind(kRemediationPrefix, 0) != 0) continue;
    ++documented_here;
    auto seen = exposed.find(name);
    ASSERT_NE(seen, exposed.end()) << name << " is documented but not in the check's file";
    EXPECT_EQ(seen->second, labels) << name;
  }
  for (const auto& [name, labels] : exposed)
    EXPECT_TRUE(documented.count(name)) << name << " is in the check's file but not documented";
  EXPECT_EQ(documented_here, exposed.size());
}

}  // namespace
}  // namespace rocewatch
