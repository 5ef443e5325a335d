#include "link_quality/ethtool_read_runner.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <utility>

namespace rocewatch {
namespace {

constexpr const char* kSource = "ethtool";

const char* RequestName(EthtoolRequest request) {
  switch (request) {
    case EthtoolRequest::kFec:
      return "FEC_GET";
    case EthtoolRequest::kLinkState:
      return "LINKSTATE_GET";
    case EthtoolRequest::kPause:
      return "PAUSE_GET";
    case EthtoolRequest::kStandardStatistics:
      return "STATS_GET";
  }
  return "ETHTOOL_GET";
}

// Runs a call that answers T on the runner's thread; the answer lives in a box the call shares,
// so that a call given up on writes into memory it still owns.
template <typename T>
T Answer(EthtoolReadRunner& runner, const std::string& name, const std::string& netdev,
         std::function<T(EthtoolSources&)> read) {
  auto box = std::make_shared<T>(Status::Unavailable("ethtool call refused"));
  Status ran = runner.Run(name, netdev, [box, read = std::move(read)](EthtoolSources& sources) {
    *box = read(sources);
  });
  if (!ran.ok()) return ran;
  return std::move(*box);  // the call finished before Run returned: the box is ours alone
}

}  // namespace

// A reading thread's: its sources, used and closed on it (a thread given up on keeps them until its
// stuck call returns), and its watch, which brackets each call.
struct EthtoolReadRunner::ReaderState {
  ReaderState(EthtoolSources opened, CallWatch& call_watch)
      : sources(std::move(opened)), watch(call_watch) {}
  EthtoolSources sources;
  CallWatch& watch;
};

class EthtoolReadRunner::Statistics final : public DriverStatisticsSource {
 public:
  explicit Statistics(EthtoolReadRunner& runner) : runner_(runner) {}
  StatusOr<std::optional<DriverStatistics>> ReadDriverStatistics(
      const std::string& netdev) override {
    using Reading = StatusOr<std::optional<DriverStatistics>>;
    return Answer<Reading>(runner_, "ETHTOOL_GSTATS", netdev,
                           [netdev](EthtoolSources& sources) -> Reading {
                             if (!sources.statistics)
                               return Status::Unavailable(sources.statistics_error);
                             return sources.statistics->ReadDriverStatistics(netdev);
                           });
  }

 private:
  EthtoolReadRunner& runner_;
};

class EthtoolReadRunner::Netlink final : public EthtoolNetlinkSource {
 public:
  explicit Netlink(EthtoolReadRunner& runner) : runner_(runner) {}
  StatusOr<std::optional<EthtoolAnswer>> Read(const std::string& netdev,
                                              EthtoolRequest request) override {
    using Reading = StatusOr<std::optional<EthtoolAnswer>>;
    return Answer<Reading>(runner_, RequestName(request), netdev,
                           [netdev, request](EthtoolSources& sources) -> Reading {
                             if (!sources.netlink)
                               return Status::Unavailable(sources.netlink_error);
                             return sources.netlink->Read(netdev, request);
                           });
  }
  StatusOr<std::optional<std::string>> ReadModulePage(const std::string& netdev,
                                                      const ModulePageAddress& address) override {
    using Reading = StatusOr<std::optional<std::string>>;
    return Answer<Reading>(runner_, "MODULE_EEPROM_GET", netdev,
                           [netdev, address](EthtoolSources& sources) -> Reading {
                             if (!sources.netlink)
                               return Status::Unavailable(sources.netlink_error);
                             return sources.netlink->ReadModulePage(netdev, address);
                           });
  }

 private:
  EthtoolReadRunner& runner_;
};

class EthtoolReadRunner::Files final : public FileSystem {
 public:
  Files(EthtoolReadRunner& runner, const FileSystem& base) : runner_(runner), base_(base) {}

  StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) const override {
    return Through<StatusOr<std::string>>("read", path, [path, max_bytes](const FileSystem& fs) {
      return fs.ReadFile(path, max_bytes);
    });
  }
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override {
    return Through<StatusOr<std::vector<std::string>>>(
        "list", path, [path](const FileSystem& fs) { return fs.ListDir(path); });
  }
  StatusOr<std::string> ReadLink(const std::string& path) const override {
    return Through<StatusOr<std::string>>(
        "readlink", path, [path](const FileSystem& fs) { return fs.ReadLink(path); });
  }
  bool IsDirectory(const std::string& path) const override {
    StatusOr<bool> is = Through<StatusOr<bool>>(
        "stat", path,
        [path](const FileSystem& fs) -> StatusOr<bool> { return fs.IsDirectory(path); });
    return is.ok() && *is;
  }

 private:
  // The call on the reading thread, named "<call> <path>"; a refused or stuck one is IoError ETIME
  // (what a failed read of the file gives its caller).
  template <typename T>
  T Through(const char* call, const std::string& path,
            std::function<T(const FileSystem&)> read) const {
    const FileSystem* base = &base_;
    T answer = Answer<T>(runner_, call, path,
                         [base, read = std::move(read)](EthtoolSources&) { return read(*base); });
    if (!answer.ok() && answer.status().code() == StatusCode::kUnavailable)
      return Status::IoError(answer.status().message(), ETIME);
    return answer;
  }

  EthtoolReadRunner& runner_;
  const FileSystem& base_;
};

std::unique_ptr<FileSystem> EthtoolReadRunner::FilesThrough(const FileSystem& base) {
  return std::make_unique<Files>(*this, base);
}

EthtoolReadRunner::EthtoolReadRunner(EthtoolSources sources, EthtoolReadDeadline deadline)
    : deadline_(std::move(deadline)),
      stuck_(deadline_.stuck ? deadline_.stuck : std::make_shared<StuckCalls>()),
      first_(std::move(sources)) {
  if (first_.statistics) statistics_ = std::make_unique<Statistics>(*this);
  if (first_.netlink) netlink_ = std::make_unique<Netlink>(*this);
  GuardedReaderOptions options;
  options.stuck = stuck_;
  options.deadline = deadline_.call_deadline;
  options.max_abandoned = deadline_.max_abandoned;
  reader_ = std::make_unique<GuardedReader<ReaderState>>(options, [this](CallWatch& watch) {
    EthtoolSources sources;
    if (!first_taken_) {
      sources = std::move(first_);
      first_taken_ = true;
    } else if (deadline_.reopen) {
      sources = deadline_.reopen();  // on the loop thread: its network namespace
    } else {
      sources.statistics_error = sources.netlink_error =
          "the ethtool sources were given up on with a stuck call";
    }
    return std::make_shared<ReaderState>(std::move(sources), watch);
  });
}

EthtoolReadRunner::~EthtoolReadRunner() = default;

std::optional<std::string> EthtoolReadRunner::StuckCallOf(const std::string& netdev) const {
  if (stuck_->size() == 0) return std::nullopt;  // no lock taken while nothing is stuck
  const std::string suffix = " " + netdev;
  for (const StuckCalls::Call& call : stuck_->List())
    if (call.source == kSource && call.what.size() > suffix.size() &&
        call.what.compare(call.what.size() - suffix.size(), suffix.size(), suffix) == 0)
      return call.what;
  return std::nullopt;
}

Status EthtoolReadRunner::Run(const std::string& name, const std::string& netdev, Call call) {
  if (std::optional<std::string> stuck = StuckCallOf(netdev))
    return Status::Unavailable(*stuck + " is stuck in the kernel; " + netdev + " is skipped");
  std::optional<StuckCalls::Call> stuck;
  Status ran = reader_->Run(
      [what = name + " " + netdev, call = std::move(call)](ReaderState& state) {
        if (!state.watch.Begin(kSource, what)) return;  // given up on: refused
        call(state.sources);
        state.watch.End();
      },
      &stuck);
  if (!ran.ok() && stuck)
    spdlog::warn(
        "ethtool call stuck for over {} ms: {}; its reading thread is given up on and the netdev "
        "is skipped until the call returns",
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline_.call_deadline).count(),
        stuck->what);
  return ran;
}

}  // namespace rocewatch
