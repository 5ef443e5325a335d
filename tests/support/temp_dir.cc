#include "support/temp_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "support/write_in_place.h"

namespace rocewatch {

std::string TestTempBase() {
  const char* base = getenv("TMPDIR");
  return base && *base ? base : "/tmp";
}

TempDir::TempDir() {
  std::string pattern = TestTempBase() + "/rocewatch-test-XXXXXX";
  char* made = mkdtemp(pattern.data());
  if (made == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
    return;
  }
  path_ = made;
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

std::string TempDir::WriteFile(const std::string& relative, const std::string& content) const {
  std::filesystem::path full = std::filesystem::path(path_) / relative;
  std::filesystem::create_directories(full.parent_path());
  Status written = WriteFileInPlace(full.string(), content);  // kept descriptors see it
  EXPECT_TRUE(written.ok()) << written.ToString();
  return full.string();
}

std::string TempDir::MakeDir(const std::string& relative) const {
  std::filesystem::path full = std::filesystem::path(path_) / relative;
  std::filesystem::create_directories(full);
  return full.string();
}

}  // namespace rocewatch
