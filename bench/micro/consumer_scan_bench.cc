// The consumer scan (lib/sources/consumers/procfs_consumer_scanner.h) of a node with 2,000
// processes, on a tree written to tmpfs with the shape of /proc: 1,000 kernel threads (empty fd/),
// 992 user processes with 24 descriptors each, and 8 training ranks holding an RDMA device (200
// descriptors, a 2,000-line maps, an environment). Three figures:
//   BM_ConsumerScanFull          every process's descriptors read (diagnose; the daemon's first
//                                scan and its rare full re-scans)
//   BM_ConsumerScanIncremental   the daemon's steady state: nothing new, nothing due
//   BM_ConsumerScanRealProc      a full scan of this machine's own /proc (real procfs costs)
// The daemon runs the incremental scan every --consumer-scan-interval (10 s); docs/benchmarks.md
// turns the figures into a share of a core.

#include <benchmark/benchmark.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "consumers/procfs_consumer_scanner.h"
#include "counting_file_system.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

constexpr int kKernelThreads = 1000;
constexpr int kUserProcesses = 992;
constexpr int kRanks = 8;

void Write(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

void Link(const std::string& target, const std::string& path) {
  if (::symlink(target.c_str(), path.c_str()) != 0) std::abort();
}

void Process(const std::string& proc, int pid, const std::string& comm, int fds,
             const std::vector<std::string>& extra_fds, const std::string& maps,
             const std::string& environ) {
  const std::string dir = proc + "/" + std::to_string(pid);
  ::mkdir(dir.c_str(), 0755);
  ::mkdir((dir + "/fd").c_str(), 0755);
  Write(dir + "/comm", comm + "\n");
  Write(dir + "/stat", std::to_string(pid) + " (" + comm +
                           ") S 1 1 1 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 4242 1000 100\n");
  Write(dir + "/cgroup", "0::/user.slice/user-1000.slice/session-1.scope\n");
  Write(dir + "/maps", maps);
  Write(dir + "/environ", environ);
  int fd = 0;
  for (; fd < fds; ++fd)
    Link(fd % 3 == 0 ? "socket:[" + std::to_string(10000 + fd) + "]" : "/var/log/app.log",
         dir + "/fd/" + std::to_string(fd));
  for (const std::string& target : extra_fds) Link(target, dir + "/fd/" + std::to_string(fd++));
}

// The 2,000-process tree, written once per benchmark binary run.
const TempDir& ProcessTree() {
  static const TempDir* tree = [] {
    auto* dir = new TempDir();
    const std::string root = dir->path();
    for (const char* d : {"/proc", "/sys", "/sys/class", "/sys/class/infiniband_verbs"})
      ::mkdir((root + d).c_str(), 0755);
    for (int n = 0; n < kRanks; ++n) {
      const std::string uverbs = root + "/sys/class/infiniband_verbs/uverbs" + std::to_string(n);
      ::mkdir(uverbs.c_str(), 0755);
      Write(uverbs + "/ibdev", "mlx5_" + std::to_string(n) + "\n");
    }
    const std::string proc = root + "/proc";
    Link("1", proc + "/self");
    Process(proc, 1, "systemd", 60, {}, "", "");  // one of the user processes
    Process(proc, 2, "kthreadd", 0, {}, "", "");  // one of the kernel threads
    for (int i = 0; i < kKernelThreads - 1; ++i) Process(proc, 3 + i, "kworker/0:1", 0, {}, "", "");
    std::string small_maps;
    for (int i = 0; i < 40; ++i)
      small_maps += "7f1c2a000000-7f1c2a028000 r--p 00000000 fd:01 131 /usr/lib/libc.so.6\n";
    for (int i = 0; i < kUserProcesses - 1; ++i)
      Process(proc, 2000 + i, "sshd", 24, {}, small_maps,
              std::string("PATH=/usr/bin\0HOME=/root\0", 25));
    std::string big_maps;
    for (int i = 0; i < 2000; ++i)
      big_maps +=
          "7f1c2a000000-7f1c2a028000 r-xp 00000000 fd:01 131 "
          "/opt/conda/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so\n";
    big_maps +=
        "7f1c30000000-7f1c30200000 r-xp 00000000 fd:01 4242 "
        "/usr/lib/x86_64-linux-gnu/libnccl.so.2.21.5\n";
    std::string environ;
    for (int i = 0; i < 80; ++i) environ += "VAR_" + std::to_string(i) + "=value" + '\0';
    environ += std::string("SLURM_JOB_ID=8812") + '\0' + "NCCL_IB_GID_INDEX=3" + '\0';
    for (int r = 0; r < kRanks; ++r)
      Process(proc, 9000 + r, "python3", 200,
              {"/dev/infiniband/uverbs" + std::to_string(r), "/dev/infiniband/rdma_cm"}, big_maps,
              environ);
    return dir;
  }();
  return *tree;
}

void Report(benchmark::State& state, const CountingFileSystem& counting,
            const ProcfsConsumerScan& scan) {
  const double iterations = static_cast<double>(state.iterations());
  state.counters["processes"] = static_cast<double>(scan.processes);
  state.counters["consumers"] = static_cast<double>(scan.consumers.size());
  state.counters["fd_dirs_read"] = static_cast<double>(scan.descriptors_read);
  state.counters["syscall_groups_per_scan"] =
      static_cast<double>(counting.reads() + counting.listings() + counting.links() +
                          counting.stats()) /
      iterations;
}

// Scans once per iteration, 10 s of the daemon's clock apart; the last scan.
ProcfsConsumerScan ScanEachIteration(benchmark::State& state, ProcfsConsumerScanner& scanner,
                                     bool full) {
  MonoTime now{};
  if (!full) scanner.Scan(now, /*full=*/true);  // the first scan of the daemon
  ProcfsConsumerScan scan;
  for (auto _ : state) {
    now += std::chrono::seconds(10);
    scan = scanner.Scan(now, full);
    benchmark::DoNotOptimize(scan);
  }
  return scan;
}

void BM_ConsumerScanFull(benchmark::State& state) {
  PosixFileSystem posix;
  CountingFileSystem fs(posix);
  ProcfsConsumerScanner scanner(fs, HostPaths::ForRoots(ProcessTree().path()));
  ProcfsConsumerScan scan = ScanEachIteration(state, scanner, /*full=*/true);
  if (scan.processes != kKernelThreads + kUserProcesses + kRanks ||
      scan.consumers.size() != kRanks || !scan.Complete())
    return state.SkipWithError("fixture: the scan did not see the tree");
  Report(state, fs, scan);
}
BENCHMARK(BM_ConsumerScanFull)->Unit(benchmark::kMillisecond);

void BM_ConsumerScanIncremental(benchmark::State& state) {
  PosixFileSystem posix;
  CountingFileSystem fs(posix);
  ProcfsConsumerScanner scanner(fs, HostPaths::ForRoots(ProcessTree().path()));
  ProcfsConsumerScan scan = ScanEachIteration(state, scanner, /*full=*/false);
  if (scan.consumers.size() != kRanks) return state.SkipWithError("lost the consumers");
  state.counters["processes"] = static_cast<double>(scan.processes);
  state.counters["fd_dirs_read"] = static_cast<double>(scan.descriptors_read);
}
BENCHMARK(BM_ConsumerScanIncremental)->Unit(benchmark::kMicrosecond);

void BM_ConsumerScanRealProc(benchmark::State& state) {
  PosixFileSystem posix;
  CountingFileSystem fs(posix);
  ProcfsConsumerScanner scanner(fs, HostPaths::ForRoots("/"));
  Report(state, fs, ScanEachIteration(state, scanner, /*full=*/true));
}
BENCHMARK(BM_ConsumerScanRealProc)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rocewatch
