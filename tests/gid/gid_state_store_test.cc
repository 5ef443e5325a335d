#include "gid_drift/gid_state_store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/fake_state_file_writer.h"
#include "support/simulated_gid_table.h"
#include "support/temp_dir.h"
#include "support/test_times.h"

namespace rocewatch {
namespace {

constexpr const char* kBootA = "0b1e5c1a-0000-4000-8000-00000000000a";
constexpr const char* kBootB = "0b1e5c1a-0000-4000-8000-00000000000b";

GidDriftState SampleState() {
  GidDriftState state;
  KnownGidPort& port = state.tables[{"mlx5_0", 1}];
  port.entries = {{1, 0, "fe80:0000:0000:0000:0000:00ff:fe00:0001", GidType::kRoceV1, "eth0"},
                  {1, 5, "0000:0000:0000:0000:0000:ffff:0a00:0001", GidType::kRoceV2, "eth0.100"}};
  port.departed[{"2001:0db8:0000:0000:0000:0000:0000:0001", GidType::kRoceV2, "eth0"}] = {7, 3};
  state.tables[{"mlx5_1", 2}].entries = {
      {2, 0, "fe80:0000:0000:0000:0002:c903:0001:0002", GidType::kIb, ""}};
  state.counters[{"mlx5_0", 1, "eth0.100"}] = {
      2, kT0 + 0.25,
      GidLastMove{"0000:0000:0000:0000:0000:ffff:0a00:0001", GidType::kRoceV2, 3, 5}};
  state.next_departure = 4;
  return state;
}

TEST(GidStateSerializationTest, RoundTrips) {
  PersistedGidState persisted{kBootA, kT0, SampleState()};
  StatusOr<PersistedGidState> parsed = ParseGidState(SerializeGidState(persisted));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->boot_id, kBootA);
  EXPECT_EQ(parsed->written_at_unix_seconds, kT0);
  EXPECT_EQ(parsed->state, persisted.state);
}

PersistedIncidents SampleIncidents() {
  PersistedIncidents incidents;
  IpAddress address{AddressFamily::kIpv4, "10.0.1.2", 24, false};
  PolicyRule rule;
  rule.src = "10.0.1.2";
  rule.src_len = 32;
  rule.table = 101;
  rule.priority = 1000;
  rule.action = 1;
  PersistedNetdevIncidents& netdev = incidents.netdevs["ens2f0np0"];
  netdev.missing_addresses[address] = kT0 - 30;
  netdev.expected_rules[address] = {rule};
  netdev.missing_rules = {rule};
  incidents.rails[{"mlx5_2", 1}] = {TrafficState::kCollapsed, kT0 - 20, 2e9, false,
                                    ConsumerKnowledge::kPresent};
  incidents.rails[{"mlx5_0", 1}] = {TrafficState::kNormal, kT0 - 600, std::nullopt, false,
                                    ConsumerKnowledge::kUnknown};
  incidents.finding_since[{"traffic_collapsed", "mlx5_2/1"}] = kT0 - 17;
  incidents.far_ends["ens2f0np0"] = {{0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e, 0xab}, kT0 - 12};
  incidents.link_quality["ens2f0np0"] = {"failing",
                                         "600 uncorrectable FEC blocks in the last 30 s"};
  incidents.pfc_storms.insert({"ens2f0np0", 3, "tx"});
  incidents.pfc_driver_storms["ens2f0np0"] = {1, 2};
  incidents.seen_ports[{"mlx5_0", 1}] = {"ens1f0np0", std::nullopt, false};
  incidents.seen_ports[{"mlx5_2", 1}] = {"ens3f0np0", kT0 - 40, true};
  return incidents;
}

TEST(GidStateSerializationTest, IncidentsRoundTrip) {
  PersistedGidState persisted{kBootA, kT0, SampleState(), SampleIncidents()};
  StatusOr<PersistedGidState> parsed = ParseGidState(SerializeGidState(persisted));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->incidents, persisted.incidents);
  EXPECT_EQ(parsed->incidents_note, "");
  ASSERT_EQ(parsed->incidents.far_ends.size(), 1u);
  EXPECT_EQ(parsed->incidents.far_ends.begin()->second.last_seen, kT0 - 12);
  EXPECT_EQ(parsed->incidents.link_quality.at("ens2f0np0").reason,
            "600 uncorrectable FEC blocks in the last 30 s");
  EXPECT_TRUE(parsed->incidents.seen_ports.at({"mlx5_2", 1}).unwatched);
  EXPECT_FALSE(parsed->incidents.seen_ports.at({"mlx5_0", 1}).missing_since.has_value());
}

TEST(GidStateSerializationTest, AFileWithoutFarEndsRestoresItsOtherIncidents) {
  PersistedIncidents without = SampleIncidents();
  without.far_ends.clear();
  without.link_quality.clear();
  without.pfc_storms.clear();
  without.pfc_driver_storms.clear();
  // As the release before far ends were kept wrote it: no "far_ends" key at all.
  nlohmann::json file =
      nlohmann::json::parse(SerializeGidState({kBootA, kT0, SampleState(), without}));
  for (const char* key : {"far_ends", "link_quality", "pfc_storms", "pfc_driver_storms"})
    ASSERT_EQ(file.at("incidents").erase(key), 1u) << key;
  const std::string text = file.dump();
  StatusOr<PersistedGidState> parsed = ParseGidState(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->incidents, without);
  EXPECT_EQ(parsed->incidents_note, "");
}

TEST(GidStateSerializationTest, ASchemaTwoFileKeepsItsGidStateAndRestoresNoIncident) {
  std::string text = SerializeGidState({kBootA, kT0, SampleState(), SampleIncidents()});
  text.replace(text.find("\"schema_version\": 3"), 19, "\"schema_version\": 2");
  StatusOr<PersistedGidState> parsed = ParseGidState(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->state, SampleState());
  EXPECT_EQ(parsed->incidents, PersistedIncidents{});
  EXPECT_EQ(parsed->incidents_note, "schema 2 kept no incidents");
}

TEST(GidStateSerializationTest, MalformedIncidentsAreDroppedAloneAndTheGidStateIsKept) {
  const std::string valid = SerializeGidState({kBootA, kT0, SampleState(), SampleIncidents()});
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = valid;
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
  };
  const std::pair<const char*, std::string> cases[] = {
      {"unknown traffic state", replaced("\"collapsed\"", "\"exploded\"")},
      {"unknown consumers", replaced("\"present\"", "\"maybe\"")},
      {"address not an address", replaced("\"address\": \"10.0.1.2\"", "\"address\": \"x\"")},
      {"prefix out of range", replaced("\"prefix_len\": 24", "\"prefix_len\": 33")},
      {"port 0",
       [&] {
         std::string s = valid;
         size_t at = s.find("\"port\": 1", s.find("\"device\": \"mlx5_2\""));
         return s.replace(at, 9, "\"port\": 0");
       }()},
      {"negative since", replaced("\"since\": 1767225583.0", "\"since\": -1")},
      {"incidents not an object", replaced("\"incidents\": {", "\"incidents\": 5, \"x\": {")},
      {"frame not hex", replaced("\"0180c200000eab\"", "\"0180c200000exx\"")},
      {"frame upper-case hex", replaced("\"0180c200000eab\"", "\"0180C200000EAB\"")},
      {"frame of odd length", replaced("\"0180c200000eab\"", "\"0180c200000ea\"")},
      {"frame empty", replaced("\"0180c200000eab\"", "\"\"")},
      {"frame too long", replaced("\"0180c200000eab\"", "\"" + std::string(2 * 1523, 'a') + "\"")},
      {"frame not a string", replaced("\"0180c200000eab\"", "7")},
      {"unknown link quality", replaced("\"state\": \"failing\"", "\"state\": \"ok\"")},
      {"reason too long",
       replaced("\"600 uncorrectable", "\"" + std::string(2000, 'x') + " uncorrectable")},
      {"unknown pause direction", replaced("\"direction\": \"tx\"", "\"direction\": \"up\"")},
      {"priority out of range", replaced("\"priority\": 3", "\"priority\": 8")},
      {"negative storm events", replaced("\"error_events\": 2", "\"error_events\": -2")},
      {"seen port not a flag", replaced("\"unwatched\": false", "\"unwatched\": \"no\"")},
      {"seen port unwatched without since",
       replaced("\"missing_since\": 1767225560.0", "\"missing_since\": null")},
  };
  for (const auto& [what, text] : cases) {
    StatusOr<PersistedGidState> parsed = ParseGidState(text);
    if (!parsed.ok()) {  // the edit broke the JSON itself: the whole file is corrupt
      EXPECT_EQ(parsed.status().code(), StatusCode::kCorrupt) << what;
      continue;
    }
    EXPECT_EQ(parsed->state, SampleState()) << what;
    EXPECT_EQ(parsed->incidents, PersistedIncidents{}) << what;
    EXPECT_NE(parsed->incidents_note.find("its incidents are unusable"), std::string::npos)
        << what << ": " << parsed->incidents_note;
  }
}

TEST(GidStateSerializationTest, BadInputIsCorruptNeverACrash) {
  std::string valid = SerializeGidState({kBootA, kT0, SampleState()});
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = valid;
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
  };
  const std::pair<const char*, std::string> cases[] = {
      {"empty", ""},
      {"whitespace", "  \n"},
      {"truncated", valid.substr(0, valid.size() / 2)},
      {"binary", std::string("\x00\xff\xfe{\x01", 5)},
      {"not an object", "[1,2,3]"},
      {"null", "null"},
      {"other format", replaced("rocewatch-gid-state", "something-else")},
      {"schema as text", replaced("\"schema_version\": 3", "\"schema_version\": \"2\"")},
      {"no schema", replaced("\"schema_version\": 3", "\"schema\": 2")},
      {"move without old index", replaced("\"old_index\"", "\"old_\"")},
      {"port as text", replaced("\"port\": 1", "\"port\": \"1\"")},
      {"negative port", replaced("\"port\": 1", "\"port\": -1")},
      {"huge index", replaced("\"index\": 5", "\"index\": 99999999999")},
      {"malformed gid", replaced("0000:0000:0000:0000:0000:ffff:0a00:0001", "10.0.0.1")},
      {"unknown type", replaced("\"roce_v2\"", "\"roce_v3\"")},
      {"missing drift", replaced("\"drift\"", "\"drift_\"")},
      {"events negative", replaced("\"events\": 2", "\"events\": -2")},
      {"written_at as text", replaced("\"written_at\": ", "\"written_at\": \"now\", \"x\": ")},
      {"ports not objects", replaced("\"ports\": [", "\"ports\": [1, ")},
      {"deep nesting", std::string(100000, '[')},
      {"schema version 0", replaced("\"schema_version\": 3", "\"schema_version\": 0")},
      {"negative schema version", replaced("\"schema_version\": 3", "\"schema_version\": -1")},
  };
  for (const auto& [name, text] : cases) {
    StatusOr<PersistedGidState> parsed = ParseGidState(text);
    ASSERT_FALSE(parsed.ok()) << name;
    EXPECT_EQ(parsed.status().code(), StatusCode::kCorrupt) << name;
  }
}

// A version too large for an int is still newer, never wrapped to a negative (old) one.
TEST(GidStateSerializationTest, ANewerSchemaIsRefusedNotCorrupt) {
  for (const std::string version : {"4", "4294967295"}) {
    std::string text = SerializeGidState({kBootA, kT0, SampleState()});
    text.replace(text.find("\"schema_version\": 3"), 19, "\"schema_version\": " + version);
    StatusOr<PersistedGidState> parsed = ParseGidState(text);
    ASSERT_FALSE(parsed.ok()) << version;
    EXPECT_EQ(parsed.status().code(), StatusCode::kUnavailable) << version;
    EXPECT_NE(parsed.status().message().find("schema version " + version), std::string::npos)
        << parsed.status().message();
  }
}

// A state file as rocewatch 0.1 wrote it: schema 1 ("version": 1), no last move.
constexpr const char* kSchemaOneFile = R"({
 "boot_id": "0b1e5c1a-0000-4000-8000-00000000000a",
 "drift": [
  {
   "device": "mlx5_0",
   "events": 2,
   "last_drift_unix_seconds": 1767225600.25,
   "netdev": "eth0",
   "port": 1
  }
 ],
 "format": "rocewatch-gid-state",
 "next_departure": 1,
 "ports": [
  {
   "departed": [],
   "device": "mlx5_0",
   "gids": [
    {
     "gid": "0000:0000:0000:0000:0000:ffff:0a00:0001",
     "index": 5,
     "netdev": "eth0",
     "type": "roce_v2"
    }
   ],
   "port": 1
  }
 ],
 "version": 1,
 "written_at": 1767225600.0
}
)";

// A host root with a boot id, a state file location and a daemon that can be "restarted".
class GidStateStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SetBootId(kBootA);
    root_.MakeDir("var/lib");
  }
  void SetBootId(const std::string& id) {
    root_.WriteFile("proc/sys/kernel/random/boot_id", id + "\n");
  }
  std::string StatePath() const { return root_.path() + "/var/lib/rocewatch/state.json"; }
  std::string BootIdPath() const { return root_.path() + "/proc/sys/kernel/random/boot_id"; }
  GidStateStore MakeStore(StateFileWriter& writer) {
    return GidStateStore(fs_, writer, StatePath(), BootIdPath());
  }
  std::vector<GidPortTable> Tables() const {
    return {{"mlx5_0", 1, true, "eth0", port_.Entries()}};
  }

  TempDir root_;
  PosixFileSystem fs_;
  PosixStateFileWriter writer_;
  SimulatedGidTable port_{1, "eth0", "02:00:00:00:00:01"};
};

TEST_F(GidStateStoreTest, AGidThatMovedWhileTheDaemonWasDownIsADriftAfterRestart) {
  port_.AddAddress("10.0.0.1");
  port_.TakeReference(3);
  {
    GidStateStore store = MakeStore(writer_);
    EXPECT_EQ(store.Load().origin, GidStateStore::Origin::kNoFile);
    GidDriftDetector detector;
    detector.Observe(Tables(), kT0);
    ASSERT_TRUE(store.Save(detector.state(), kT0).ok());
  }
  port_.RemoveAddress("10.0.0.1");  // the daemon is down during the flap
  port_.AddAddress("10.0.0.1");

  GidStateStore store = MakeStore(writer_);
  GidStateStore::LoadResult loaded = store.Load();
  ASSERT_EQ(loaded.origin, GidStateStore::Origin::kRestored) << loaded.message;
  GidDriftDetector detector(std::move(loaded.state));
  GidObservation first = detector.Observe(Tables(), kT0 + 60);
  ASSERT_EQ(first.drifts(), 1u);
  EXPECT_EQ(detector.state().counters.at({"mlx5_0", 1, "eth0"}).events, 1u);
  EXPECT_EQ(store.failures(), 0u);
  EXPECT_FALSE(std::filesystem::exists(StatePath() + ".tmp." + std::to_string(getpid())));
}

TEST_F(GidStateStoreTest, DriftCountersContinueAcrossRestarts) {
  GidDriftState state;
  state.counters[{"mlx5_0", 1, "eth0"}] = {3, kT0, std::nullopt};
  GidStateStore first = MakeStore(writer_);
  first.Load();
  ASSERT_TRUE(first.Save(state, kT0).ok());
  GidStateStore second = MakeStore(writer_);
  EXPECT_EQ(second.Load().state.counters.at({"mlx5_0", 1, "eth0"}).events, 3u);
}

TEST_F(GidStateStoreTest, ARebootStartsAFreshBaseline) {
  port_.AddAddress("10.0.0.1");
  port_.TakeReference(3);
  GidDriftDetector before;
  before.Observe(Tables(), kT0);
  GidStateStore first = MakeStore(writer_);
  first.Load();
  ASSERT_TRUE(first.Save(before.state(), kT0).ok());

  SetBootId(kBootB);
  SimulatedGidTable rebooted(1, "eth0", "02:00:00:00:00:01");
  rebooted.AddAddress("10.9.9.9");  // another address came up first this boot
  rebooted.AddAddress("10.0.0.1");
  GidStateStore store = MakeStore(writer_);
  GidStateStore::LoadResult loaded = store.Load();
  EXPECT_EQ(loaded.origin, GidStateStore::Origin::kNewBoot);
  EXPECT_TRUE(loaded.state.tables.empty());
  GidDriftDetector detector(std::move(loaded.state));
  EXPECT_EQ(detector.Observe({{"mlx5_0", 1, true, "eth0", rebooted.Entries()}}, kT0).drifts(), 0u);
  EXPECT_EQ(store.failures(), 0u);
}

TEST_F(GidStateStoreTest, ACorruptFileIsAWarningAndAFreshBaseline) {
  root_.WriteFile("var/lib/rocewatch/state.json", "{\"format\": \"rocewatch-gid-st");
  GidStateStore store = MakeStore(writer_);
  GidStateStore::LoadResult loaded = store.Load();
  EXPECT_EQ(loaded.origin, GidStateStore::Origin::kUnusable);
  EXPECT_NE(loaded.message.find("not valid JSON"), std::string::npos) << loaded.message;
  EXPECT_EQ(store.failures(), 1u);
  ASSERT_TRUE(store.Save(GidDriftState{}, kT0).ok()) << "the next save replaces it";
  EXPECT_EQ(MakeStore(writer_).Load().origin, GidStateStore::Origin::kRestored);
}

TEST_F(GidStateStoreTest, AnUnreadableStateFileIsAWarning) {
  root_.MakeDir("var/lib/rocewatch/state.json");  // a directory: EISDIR
  GidStateStore store = MakeStore(writer_);
  EXPECT_EQ(store.Load().origin, GidStateStore::Origin::kUnusable);
  EXPECT_EQ(store.failures(), 1u);
}

TEST_F(GidStateStoreTest, WithoutABootIdNothingIsRestored) {
  std::filesystem::remove(BootIdPath());
  GidStateStore store = MakeStore(writer_);
  GidStateStore::LoadResult loaded = store.Load();
  EXPECT_EQ(loaded.origin, GidStateStore::Origin::kUnusable);
  EXPECT_NE(loaded.message.find("boot id"), std::string::npos);
}

TEST_F(GidStateStoreTest, AFailedWriteIsCountedAndReported) {
  FakeStateFileWriter failing;
  failing.fail_errno = EROFS;
  GidStateStore store = MakeStore(failing);
  store.Load();
  Status status = store.Save(SampleState(), kT0);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.sys_errno(), EROFS);
  EXPECT_EQ(store.failures(), 1u);
}

TEST_F(GidStateStoreTest, SavesAreStampedWithTheBootId) {
  FakeStateFileWriter recording;
  GidStateStore store = MakeStore(recording);
  store.Load();
  ASSERT_TRUE(store.Save(SampleState(), kT0).ok());
  StatusOr<PersistedGidState> written = ParseGidState(recording.files.at(StatePath()));
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(written->boot_id, kBootA);
  EXPECT_EQ(written->state, SampleState());
}

TEST_F(GidStateStoreTest, AnEmptyPathDisablesPersistence) {
  FakeStateFileWriter recording;
  GidStateStore store(fs_, recording, "", BootIdPath());
  EXPECT_EQ(store.Load().origin, GidStateStore::Origin::kDisabled);
  EXPECT_TRUE(store.Save(SampleState(), kT0).ok());
  EXPECT_EQ(recording.writes, 0);
}

TEST_F(GidStateStoreTest, AnOlderSchemaFileIsRestoredAndRewrittenInTheCurrentSchema) {
  root_.WriteFile("var/lib/rocewatch/state.json", kSchemaOneFile);
  GidStateStore store = MakeStore(writer_);
  GidStateStore::LoadResult loaded = store.Load();
  ASSERT_EQ(loaded.origin, GidStateStore::Origin::kRestored) << loaded.message;
  EXPECT_NE(loaded.message.find("schema version 1"), std::string::npos) << loaded.message;
  const GidDriftCounter& counter = loaded.state.counters.at({"mlx5_0", 1, "eth0"});
  EXPECT_EQ(counter.events, 2u);
  EXPECT_FALSE(counter.last_move.has_value()) << "schema 1 did not record the indices";
  EXPECT_EQ(loaded.state.tables.at({"mlx5_0", 1}).entries.at(0).index, 5u);
  ASSERT_TRUE(store.Save(loaded.state, kT0 + 1).ok());
  StatusOr<PersistedGidState> rewritten = ParseGidState(*fs_.ReadFile(StatePath(), 1 << 20));
  ASSERT_TRUE(rewritten.ok());
  EXPECT_EQ(rewritten->schema_version, kGidStateSchemaVersion);
  EXPECT_EQ(rewritten->state, loaded.state);
}

TEST_F(GidStateStoreTest, ANewerSchemaFileIsRefusedAndNeverOverwritten) {
  std::string newer = SerializeGidState({kBootA, kT0, SampleState()});
  newer.replace(newer.find("\"schema_version\": 3"), 19, "\"schema_version\": 9");
  root_.WriteFile("var/lib/rocewatch/state.json", newer);
  GidStateStore store = MakeStore(writer_);
  GidStateStore::LoadResult loaded = store.Load();
  EXPECT_EQ(loaded.origin, GidStateStore::Origin::kNewerSchema);
  EXPECT_NE(loaded.message.find("newer rocewatch (schema version 9"), std::string::npos)
      << loaded.message;
  EXPECT_NE(loaded.message.find("left untouched"), std::string::npos) << loaded.message;
  EXPECT_TRUE(loaded.state.tables.empty());
  EXPECT_EQ(store.failures(), 1u);
  EXPECT_FALSE(store.may_write());
  Status save = store.Save(SampleState(), kT0 + 60);
  EXPECT_EQ(save.code(), StatusCode::kUnavailable);
  EXPECT_EQ(*fs_.ReadFile(StatePath(), 1 << 20), newer);
  EXPECT_EQ(store.failures(), 1u) << "the refusal is counted once, at start";
}

TEST_F(GidStateStoreTest, WithoutABootIdAnExistingFileIsNeverReplaced) {
  {
    GidStateStore first = MakeStore(writer_);
    first.Load();
    ASSERT_TRUE(first.Save(SampleState(), kT0).ok());
  }
  const std::string before = *fs_.ReadFile(StatePath(), 1 << 20);
  std::filesystem::remove(BootIdPath());
  GidStateStore store = MakeStore(writer_);
  EXPECT_EQ(store.Load().origin, GidStateStore::Origin::kUnusable);
  EXPECT_FALSE(store.Save(GidDriftState{}, kT0 + 60).ok());
  EXPECT_EQ(*fs_.ReadFile(StatePath(), 1 << 20), before);
}

TEST_F(GidStateStoreTest, ACorruptFileIsKeptAsACopyBeforeItIsReplaced) {
  const std::string corrupt = "{\"format\": \"rocewatch-gid-st";
  root_.WriteFile("var/lib/rocewatch/state.json", corrupt);
  GidStateStore store = MakeStore(writer_);
  GidStateStore::LoadResult loaded = store.Load();
  EXPECT_NE(loaded.message.find(StatePath() + ".corrupt"), std::string::npos) << loaded.message;
  EXPECT_EQ(*fs_.ReadFile(StatePath() + ".corrupt", 1 << 20), corrupt);
  EXPECT_TRUE(store.may_write());
}

TEST_F(GidStateStoreTest, AnUnreadableFileIsNeverReplaced) {
  root_.MakeDir("var/lib/rocewatch/state.json");  // a directory: EISDIR
  FakeStateFileWriter recording;
  GidStateStore store = MakeStore(recording);
  store.Load();
  EXPECT_FALSE(store.Save(SampleState(), kT0).ok());
  EXPECT_EQ(recording.writes, 0);
}

TEST(PosixStateFileWriterTest, ReplacesTheFileAndLeavesNoTemporary) {
  TempDir dir;
  PosixStateFileWriter writer;
  std::string path = dir.path() + "/state/state.json";
  ASSERT_TRUE(writer.WriteAtomically(path, "one").ok());
  ASSERT_TRUE(writer.WriteAtomically(path, "two").ok());
  PosixFileSystem fs;
  EXPECT_EQ(*fs.ReadFile(path, 100), "two");
  EXPECT_EQ(*fs.ListDir(dir.path() + "/state"), (std::vector<std::string>{"state.json"}));
}

TEST(PosixStateFileWriterTest, AnImpossiblePathFailsWithoutTouchingAnything) {
  TempDir dir;
  dir.WriteFile("file", "x");
  PosixStateFileWriter writer;
  Status status = writer.WriteAtomically(dir.path() + "/file/state.json", "content");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.sys_errno(), ENOTDIR);
  status = writer.WriteAtomically(dir.path() + "/a/b/state.json", "content");
  EXPECT_EQ(status.sys_errno(), ENOENT) << "only one missing level is created";
}

}  // namespace
}  // namespace rocewatch
