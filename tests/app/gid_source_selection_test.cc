#include "daemon/gid_source_selection.h"

#include <gtest/gtest.h>

#include "support/fake_verbs_api.h"

namespace rocewatch {
namespace {

TEST(GidSourceSelectionTest, ParsesTheThreeChoices) {
  EXPECT_EQ(*ParseGidSourceChoice("auto"), GidSourceChoice::kAuto);
  EXPECT_EQ(*ParseGidSourceChoice("verbs"), GidSourceChoice::kVerbs);
  EXPECT_EQ(*ParseGidSourceChoice("sysfs"), GidSourceChoice::kSysfs);
  for (const char* bad : {"", "Verbs", "sysfs ", "ibverbs"})
    EXPECT_EQ(ParseGidSourceChoice(bad).status().code(), StatusCode::kInvalidArgument) << bad;
}

struct Decision {
  GidSourceChoice choice;
  size_t devices_open;
  bool ok;
  GidSourceKind kind;
};

TEST(GidSourceSelectionTest, DecisionTable) {
  const Decision table[] = {
      {GidSourceChoice::kAuto, 2, true, GidSourceKind::kVerbs},
      {GidSourceChoice::kAuto, 0, true, GidSourceKind::kSysfs},
      {GidSourceChoice::kVerbs, 1, true, GidSourceKind::kVerbs},
      {GidSourceChoice::kVerbs, 0, false, GidSourceKind::kVerbs},
      {GidSourceChoice::kSysfs, 4, true, GidSourceKind::kSysfs},
      {GidSourceChoice::kSysfs, 0, true, GidSourceKind::kSysfs},
  };
  for (const Decision& d : table) {
    StatusOr<GidSourceKind> kind = SelectGidSource(d.choice, d.devices_open, "ENOSYS");
    SCOPED_TRACE(std::string(GidSourceChoiceName(d.choice)) + " with " +
                 std::to_string(d.devices_open));
    ASSERT_EQ(kind.ok(), d.ok);
    if (d.ok) {
      EXPECT_EQ(*kind, d.kind);
    }
  }
}

TEST(GidSourceSelectionTest, VerbsWithoutDevicesSaysWhyAndWhatToDo) {
  Status status =
      SelectGidSource(GidSourceChoice::kVerbs, 0, "no RDMA support in the kernel").status();
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  EXPECT_NE(status.message().find("no RDMA support in the kernel"), std::string::npos);
  EXPECT_NE(status.message().find("--gid-source auto or sysfs"), std::string::npos);
}

// Stands in for SysfsGidTableSource.
class StubSysfsSource final : public GidTableSource {
 public:
  const char* name() const override { return "sysfs"; }
  StatusOr<GidTableRead> ReadDevice(const std::string&) override { return GidTableRead{}; }
};

std::unique_ptr<GidTableSource> MakeStubSysfs() { return std::make_unique<StubSysfsSource>(); }

TEST(GidSourceSelectionTest, AutoFallsBackToSysfsWithoutRdmaInTheKernel) {
  FakeVerbsApi api;
  api.SetNoRdmaSupport();
  StatusOr<GidSourceSelection> selection =
      MakeGidTableSource(GidSourceChoice::kAuto, api, MakeStubSysfs);
  ASSERT_TRUE(selection.ok());
  EXPECT_STREQ(selection->source->name(), "sysfs");
  EXPECT_EQ(selection->verbs_devices, nullptr);
  EXPECT_NE(selection->fallback_reason.find("ENOSYS"), std::string::npos);
}

TEST(GidSourceSelectionTest, AutoUsesVerbsWhenADeviceOpens) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0");
  StatusOr<GidSourceSelection> selection =
      MakeGidTableSource(GidSourceChoice::kAuto, api, MakeStubSysfs);
  ASSERT_TRUE(selection.ok());
  EXPECT_STREQ(selection->source->name(), "verbs");
  ASSERT_NE(selection->verbs_devices, nullptr);
  EXPECT_EQ(selection->verbs_devices->names(), (std::vector<std::string>{"mlx5_0"}));
}

TEST(GidSourceSelectionTest, VerbsFailsWhenDevicesAreListedButNoneOpens) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0").open_errno = EACCES;
  StatusOr<GidSourceSelection> selection =
      MakeGidTableSource(GidSourceChoice::kVerbs, api, MakeStubSysfs);
  ASSERT_FALSE(selection.ok());
  EXPECT_NE(selection.status().message().find("Permission denied"), std::string::npos);
}

TEST(GidSourceSelectionTest, SysfsNeverTouchesVerbs) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0");
  StatusOr<GidSourceSelection> selection =
      MakeGidTableSource(GidSourceChoice::kSysfs, api, MakeStubSysfs);
  ASSERT_TRUE(selection.ok());
  EXPECT_EQ(api.list_calls, 0);
  EXPECT_EQ(api.open_contexts(), 0);
}

}  // namespace
}  // namespace rocewatch
