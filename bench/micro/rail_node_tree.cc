#include "rail_node_tree.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "support/sysfs_fixture.h"

namespace rocewatch {
namespace {

std::string TreeBase() {
  if (std::filesystem::is_directory("/dev/shm")) return "/dev/shm";
  const char* tmp = getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

// Owns the directory; its destructor (at exit) removes it.
class RailNodeTree {
 public:
  RailNodeTree() {
    std::string pattern = TreeBase() + "/rocewatch-bench-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) Die("mkdtemp " + pattern);
    dir_ = pattern;
    sysfs_root_ = dir_ + "/sys";
    Status written = WriteSysfsFixture(sysfs_root_, RailNode(kBenchRails));
    if (!written.ok()) Die(written.ToString());
  }
  ~RailNodeTree() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  const std::string& sysfs_root() const { return sysfs_root_; }

 private:
  [[noreturn]] static void Die(const std::string& why) {
    std::fprintf(stderr, "rail node fixture: %s\n", why.c_str());
    std::exit(1);
  }
  std::string dir_;
  std::string sysfs_root_;
};

}  // namespace

const std::string& RailNodeSysfsRoot() {
  static const RailNodeTree tree;
  return tree.sysfs_root();
}

}  // namespace rocewatch
