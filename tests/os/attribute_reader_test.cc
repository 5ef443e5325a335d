#include "os/attribute_reader.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "support/fake_file_system.h"
#include "support/temp_dir.h"
#include "support/write_in_place.h"

namespace rocewatch {
namespace {

// A fake file system with /sys/a holding "1\n", and a reader with room for `max_open` descriptors.
class AttributeReaderTest : public ::testing::Test {
 protected:
  AttributeReaderTest() { fs_.AddFile("/sys/a", "1\n"); }
  Status Read(KeptAttribute& attribute) { return reader_.Read(attribute, &text_); }

  FakeFileSystem fs_;
  AttributeReader reader_{fs_, 10};
  KeptAttribute a_{"/sys/a"};
  std::string text_;
};

TEST_F(AttributeReaderTest, OpensOnceThenReadsTheKeptFileEveryTime) {
  ASSERT_TRUE(Read(a_).ok());
  EXPECT_EQ(text_, "1\n");
  fs_.AddFile("/sys/a", "2\n");
  ASSERT_TRUE(Read(a_).ok());
  EXPECT_EQ(text_, "2\n");
  EXPECT_TRUE(a_.is_open());
  EXPECT_EQ(reader_.stats().opens, 1u);
  EXPECT_EQ(reader_.stats().reads, 2u);
  EXPECT_EQ(reader_.open_count(), 1u);
}

class AttributeReaderGoneTest : public AttributeReaderTest,
                                public ::testing::WithParamInterface<int> {};

TEST_P(AttributeReaderGoneTest, AKeptFileThatIsGoneIsReopenedOnceAndReadAgain) {
  ASSERT_TRUE(Read(a_).ok());
  fs_.FailReads("/sys/a", GetParam());
  EXPECT_EQ(Read(a_).sys_errno(), GetParam());
  EXPECT_EQ(reader_.stats().reopens, 1u);
  EXPECT_EQ(reader_.stats().opens, 2u);
  EXPECT_FALSE(a_.is_open());  // the failed reopen keeps nothing
  fs_.ClearFailures();
  fs_.AddFile("/sys/a", "new device\n");
  ASSERT_TRUE(Read(a_).ok());
  EXPECT_EQ(text_, "new device\n");
  EXPECT_EQ(reader_.open_count(), 1u);
}
INSTANTIATE_TEST_SUITE_P(Errno, AttributeReaderGoneTest, ::testing::Values(ENODEV, ENOENT, ESTALE));

TEST_F(AttributeReaderTest, OtherErrorsCloseTheDescriptorWithoutARetry) {
  ASSERT_TRUE(Read(a_).ok());
  fs_.FailReads("/sys/a", EINVAL);  // as a netdev's speed while it is down
  EXPECT_EQ(Read(a_).sys_errno(), EINVAL);
  EXPECT_EQ(reader_.stats().reopens, 0u);
  EXPECT_EQ(fs_.ReadCount("/sys/a"), 2u);
  EXPECT_EQ(reader_.open_count(), 0u);
}

TEST(AttributeReaderBudgetTest, BeyondTheBudgetFilesAreReadWithoutKeepingADescriptor) {
  FakeFileSystem fs;
  fs.AddFile("/sys/a", "1\n");
  fs.AddFile("/sys/b", "2\n");
  AttributeReader reader(fs, 1);
  KeptAttribute a("/sys/a"), b("/sys/b");
  std::string text;
  ASSERT_TRUE(reader.Read(a, &text).ok());
  ASSERT_TRUE(reader.Read(b, &text).ok());
  EXPECT_EQ(text, "2\n");
  EXPECT_TRUE(a.is_open());
  EXPECT_FALSE(b.is_open());
  EXPECT_EQ(reader.stats().unkept_reads, 1u);
  a.Close();  // budget returned: b is kept from its next read on
  ASSERT_TRUE(reader.Read(b, &text).ok());
  EXPECT_TRUE(b.is_open());
  EXPECT_EQ(reader.open_count(), 1u);
}

TEST_F(AttributeReaderTest, AMissingFileIsNotFoundAndKeepsNothing) {
  KeptAttribute missing("/sys/missing");
  EXPECT_EQ(Read(missing).code(), StatusCode::kNotFound);
  EXPECT_EQ(reader_.open_count(), 0u);
}

TEST_F(AttributeReaderTest, MovedAndDestroyedAttributesReturnTheirDescriptors) {
  {
    KeptAttribute b("/sys/a");
    ASSERT_TRUE(Read(b).ok());
    KeptAttribute moved = std::move(b);
    EXPECT_TRUE(moved.is_open());
    EXPECT_EQ(reader_.open_count(), 1u);
  }
  EXPECT_EQ(reader_.open_count(), 0u);
}

// The real file system: the descriptor stays open (one open for many reads) and a file written in
// place, as the fixtures write, is read fresh through it.
TEST(AttributeReaderPosixTest, PosixKeptDescriptorSeesInPlaceWrites) {
  TempDir dir;
  const std::string path = dir.WriteFile("port_xmit_data", "100\n");
  PosixFileSystem fs;
  AttributeReader reader(fs, 10);
  KeptAttribute counter(path);
  std::string text;
  ASSERT_TRUE(reader.Read(counter, &text).ok());
  EXPECT_EQ(text, "100\n");
  for (const char* value : {"123456789\n", "7\n", ""}) {
    ASSERT_TRUE(WriteFileInPlace(path, value).ok());
    ASSERT_TRUE(reader.Read(counter, &text).ok());
    EXPECT_EQ(text, value);
  }
  EXPECT_EQ(reader.stats().opens, 1u);
  const std::string big(10'000, 'x');  // more than a page: several preads
  ASSERT_TRUE(WriteFileInPlace(path, big).ok());
  ASSERT_TRUE(reader.Read(counter, &text).ok());
  EXPECT_EQ(text, big);
}

TEST(AttributeReaderPosixTest, PosixDirectoryFailsWithEisdirAndIsReopenedOnceItIsAFile) {
  TempDir dir;
  const std::string path = dir.MakeDir("unreadable");
  PosixFileSystem fs;
  AttributeReader reader(fs, 10);
  KeptAttribute attribute(path);
  std::string text;
  EXPECT_EQ(reader.Read(attribute, &text).sys_errno(), EISDIR);
  ASSERT_TRUE(WriteFileInPlace(path, "RoCE v2\n").ok());  // the fixture's slot fills up
  ASSERT_TRUE(reader.Read(attribute, &text).ok());
  EXPECT_EQ(text, "RoCE v2\n");
}

TEST(KeptDescriptorBudgetTest, TheLimitLessTheReserve) {
  EXPECT_EQ(KeptDescriptorBudget(65536), 65280u);
  EXPECT_EQ(KeptDescriptorBudget(1024, 256), 768u);
  EXPECT_EQ(KeptDescriptorBudget(100, 256), 0u);
}

}  // namespace
}  // namespace rocewatch
