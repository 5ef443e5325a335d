// What one poll's file reads cost by read strategy, on the 16-rail tree (tmpfs), to size the
// options for a cheaper poll (docs/benchmarks.md): the files of every port's counters/ and
// hw_counters/ (what a counters-only poll reads), and every gids/<i> (what a GID poll reads).
//   strategy 0: open, read until EOF (two read calls), close: what PosixFileSystem::ReadFile does
//   strategy 1: open, one read of up to a page, close (a sysfs attribute is at most a page)
//   strategy 2: descriptors kept open, one pread at offset 0 per file per poll
// Counter: files per iteration.

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "rail_node_tree.h"

namespace rocewatch {
namespace {

enum FileSet { kCounterFiles = 0, kGidFiles = 1 };
enum Strategy { kReadUntilEof = 0, kSingleRead = 1, kPreadOpen = 2 };

std::vector<std::string> FilesOf(FileSet set) {
  std::vector<std::string> files;
  const std::filesystem::path ib = std::filesystem::path(RailNodeSysfsRoot()) / "class/infiniband";
  for (const auto& device : std::filesystem::directory_iterator(ib)) {
    const std::filesystem::path port = device.path() / "ports/1";
    std::vector<std::string> dirs = set == kGidFiles
                                        ? std::vector<std::string>{"gids"}
                                        : std::vector<std::string>{"counters", "hw_counters"};
    for (const std::string& dir : dirs)
      for (const auto& file : std::filesystem::directory_iterator(port / dir))
        files.push_back(file.path().string());
  }
  return files;
}

void BM_RawFileReads(benchmark::State& state) {
  const auto set = static_cast<FileSet>(state.range(0));
  const auto strategy = static_cast<Strategy>(state.range(1));
  const std::vector<std::string> files = FilesOf(set);
  std::vector<int> fds;
  if (strategy == kPreadOpen)
    for (const std::string& file : files) fds.push_back(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  char buffer[4096];
  for (auto _ : state) {
    size_t bytes = 0;
    for (size_t i = 0; i < files.size(); ++i) {
      if (strategy == kPreadOpen) {
        bytes +=
            static_cast<size_t>(std::max<ssize_t>(0, ::pread(fds[i], buffer, sizeof(buffer), 0)));
        continue;
      }
      int fd = ::open(files[i].c_str(), O_RDONLY | O_CLOEXEC);
      ssize_t n;
      while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) {
        bytes += static_cast<size_t>(n);
        if (strategy == kSingleRead) break;
      }
      ::close(fd);
    }
    benchmark::DoNotOptimize(bytes);
  }
  for (int fd : fds) ::close(fd);
  state.counters["files"] = static_cast<double>(files.size());
}
BENCHMARK(BM_RawFileReads)
    ->ArgNames({"set", "strategy"})
    ->ArgsProduct({{kCounterFiles, kGidFiles}, {kReadUntilEof, kSingleRead, kPreadOpen}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rocewatch
