#include "slurm_check/remediation_record.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

TEST(RemediationRecordTest, RoundTripsThroughItsJson) {
  RemediationRecord record;
  record.clear_since_unix = 1764650000.5;
  record.last_run_unix = 1764650100;
  record.fabric_problem = true;
  record.last_budget = {true, 4, 2, 2};
  record.Note({1764650000, "n1", "drain", "gid_drift", "gid_drift mlx5_0/1: moved"});
  record.Note({1764650050, "n1", "drain", "gid_drift", "again"});
  StatusOr<RemediationRecord> back = ParseRemediationRecord(RemediationRecordToJson(record));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, record);
  EXPECT_EQ((back->counts[{"drain", "gid_drift"}]), 2);
}

TEST(RemediationRecordTest, KeepsTheLastActionsOnly) {
  RemediationRecord record;
  for (int i = 0; i < 30; ++i) record.Note({double(i), "n1", "resume", "findings_clear", ""});
  EXPECT_EQ(record.actions.size(), RemediationRecord::kMaxActions);
  EXPECT_EQ(record.actions.front().time_unix, 10);
  EXPECT_EQ((record.counts[{"resume", "findings_clear"}]), 30);
}

TEST(RemediationRecordTest, ForeignOrCorruptTextIsAnError) {
  for (const char* bad : {"", "{", "[]", "{\"version\": 2}", "\xff\xfe"})
    EXPECT_FALSE(ParseRemediationRecord(bad).ok()) << bad;
  EXPECT_TRUE(ParseRemediationRecord("{\"version\": 1}").ok());
}

}  // namespace
}  // namespace rocewatch
