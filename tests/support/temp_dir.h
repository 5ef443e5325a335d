#pragma once
// A directory under $TMPDIR (or /tmp) that exists for the life of the object, removed with its
// contents on destruction.

#include <string>

namespace rocewatch {

// $TMPDIR when set and not empty, else /tmp: where a test's files go (ctest sets TMPDIR per test
// kind, tests/CMakeLists.txt).
std::string TestTempBase();

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // Writes `content` to path()/relative, creating parent directories. Aborts the test on failure.
  std::string WriteFile(const std::string& relative, const std::string& content) const;
  std::string MakeDir(const std::string& relative) const;

 private:
  std::string path_;
};

}  // namespace rocewatch
