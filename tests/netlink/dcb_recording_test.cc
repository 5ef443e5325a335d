#include "netlink/dcb_recording.h"

#include <gtest/gtest.h>
#include <linux/dcbnl.h>

#include <nlohmann/json.hpp>

#include "core/hex.h"
#include "support/dcb_answers.h"
#include "support/fake_file_system.h"

namespace rocewatch {
namespace {

using Answer = StatusOr<std::optional<std::vector<uint8_t>>>;

TEST(DcbRecordingTest, AnAnswerRoundTripsAsTheKernelsBytes) {
  const std::vector<uint8_t> bytes = DcbIeeeAnswer(0x18);
  const std::string text = FormatDcbRecording("ens1f0np0", Answer(std::optional(bytes)));
  nlohmann::json doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc["outcome"], "answered");
  EXPECT_EQ(doc["pfc_enabled"], nlohmann::json::array({3, 4})) << "for people reading the bundle";
  Answer parsed = ParseDcbRecording(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_TRUE(parsed->has_value());
  EXPECT_EQ(**parsed, bytes);
  EXPECT_EQ((*ParseDcbIeeeAnswer(**parsed))->enabled, 0x18);
}

TEST(DcbRecordingTest, NoDcbAndAFailedReadAreRecordedAsSuch) {
  Answer none = ParseDcbRecording(FormatDcbRecording("veth0", Answer(std::nullopt)));
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_FALSE(none->has_value());
  Answer failed = ParseDcbRecording(
      FormatDcbRecording("ens1", Answer(Status::IoError("DCB_CMD_IEEE_GET ens1: timed out"))));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(failed.status().message().find("recorded: "), std::string::npos);
  EXPECT_NE(failed.status().message().find("timed out"), std::string::npos);
}

TEST(DcbRecordingTest, AMalformedRecordingIsCorruptNeverACrash) {
  const std::string valid = FormatDcbRecording("ens1", Answer(std::optional(DcbIeeeAnswer(0x08))));
  auto with = [&](const char* key, nlohmann::json value) {
    nlohmann::json doc = nlohmann::json::parse(valid);
    doc[key] = std::move(value);
    return doc.dump();
  };
  const std::pair<const char*, std::string> cases[] = {
      {"empty", ""},
      {"not JSON", "{\"request\": "},
      {"an array", "[]"},
      {"another request", with("request", "DCB_CMD_PFC_GCFG")},
      {"no outcome", with("outcome", nullptr)},
      {"unknown outcome", with("outcome", "maybe")},
      {"answered without answer", with("answer", nullptr)},
      {"answer not hex", with("answer", "zz")},
      {"answer of odd length", with("answer", "abc")},
      {"answer upper-case", with("answer", "AB")},
      {"answer too long", with("answer", std::string(2 * kMaxDcbAnswerBytes + 2, 'a'))},
      {"larger than its bound", valid + std::string(kMaxDcbRecordingBytes, ' ')},
  };
  for (const auto& [what, text] : cases) {
    Answer parsed = ParseDcbRecording(text);
    ASSERT_FALSE(parsed.ok()) << what;
    EXPECT_EQ(parsed.status().code(), StatusCode::kCorrupt) << what;
  }
  // An answer that is hex of a malformed DCB answer (a PFC attribute of 1 byte) reads as a
  // recording; its bytes then fail the DCB parser, as the kernel's would.
  Answer garbage = ParseDcbRecording(
      with("answer", HexEncode(NetlinkAttr(DCB_ATTR_IEEE, NetlinkAttr(DCB_ATTR_IEEE_PFC, {8})))));
  ASSERT_TRUE(garbage.ok());
  EXPECT_FALSE(HostPfcFromAnswers([&](const std::string&) { return garbage; })("ens1").ok());
}

TEST(DcbRecordingTest, RecordingsComeFirstAndABrokenOneIsNotAFallBack) {
  FakeFileSystem fs;
  int live_reads = 0;
  DcbAnswerReader live = [&](const std::string&) -> Answer {
    ++live_reads;
    return std::optional(DcbIeeeAnswer(0x01));
  };
  fs.AddFile("/bundle/rocewatch/dcb/ens1.json",
             FormatDcbRecording("ens1", Answer(std::optional(DcbIeeeAnswer(0x08)))));
  fs.AddFile("/bundle/rocewatch/dcb/ens2.json", "{broken");
  DcbAnswerReader read = DcbRecordingsFirst(live, fs, "/bundle/");
  EXPECT_EQ(*ParseDcbIeeeAnswer(**read("ens1")), (HostPfc{.enabled = 0x08, .capability = 8}));
  EXPECT_EQ(live_reads, 0);
  Answer broken = read("ens2");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(broken.status().message().find("/bundle/rocewatch/dcb/ens2.json: "), std::string::npos)
      << broken.status().message();
  EXPECT_EQ(live_reads, 0);
  EXPECT_TRUE(read("ens3").ok()) << "no recording: the live answer";
  EXPECT_EQ(live_reads, 1);
  EXPECT_EQ(DcbRecordingsFirst(nullptr, fs, "/bundle")("ens3").status().code(),
            StatusCode::kNotFound);
}

// On the live host nothing is recorded: a live reader is asked without a look for a file, while
// a recordings-only reader (diagnose) still looks, and says there is none.
TEST(DcbRecordingTest, TheLiveHostAsksTheKernelWithoutLookingForARecording) {
  FakeFileSystem fs;
  fs.AddFile("/rocewatch/dcb/ens1.json",
             FormatDcbRecording("ens1", Answer(std::optional(DcbIeeeAnswer(0x08)))));
  int live_reads = 0;
  DcbAnswerReader live = [&](const std::string&) -> Answer {
    ++live_reads;
    return std::optional(DcbIeeeAnswer(0x01));
  };
  EXPECT_EQ(*ParseDcbIeeeAnswer(**DcbRecordingsFirst(live, fs, "/")("ens1")),
            (HostPfc{.enabled = 0x01, .capability = 8}));
  EXPECT_EQ(live_reads, 1);
  EXPECT_EQ(fs.ReadCount("/rocewatch/dcb/ens1.json"), 0u);
  EXPECT_TRUE(DcbRecordingsFirst(nullptr, fs, "/")("ens1").ok());
  EXPECT_EQ(DcbRecordingsFirst(nullptr, fs, "/")("ens2").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace rocewatch
