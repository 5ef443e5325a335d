#include "link_quality/ethtool_read_runner.h"

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <mutex>
#include <utility>

#include "core/duration.h"

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

// Shared by the loop and the reading thread; the thread holds it until it finishes, so a thread
// given up on keeps its sources and its call alive for as long as it needs them.
struct EthtoolReadRunner::Reader {
  explicit Reader(std::shared_ptr<StuckCalls> stuck) : watch(std::move(stuck)) {}

  CallWatch watch;
  EthtoolSources sources;  // used and closed on the reading thread

  std::mutex mutex;
  std::condition_variable wake;      // to the thread: a call, or quit
  std::condition_variable finished;  // to the loop: the call is done
  Call call;                         // GUARDED_BY(mutex): the call to make, until taken
  std::string what;                  // GUARDED_BY(mutex): "<call> <netdev>"
  bool done = false;                 // GUARDED_BY(mutex)
  bool quit = false;                 // GUARDED_BY(mutex)
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

EthtoolReadRunner::EthtoolReadRunner(EthtoolSources sources, EthtoolReadDeadline deadline)
    : deadline_(std::move(deadline)),
      stuck_(deadline_.stuck ? deadline_.stuck : std::make_shared<StuckCalls>()),
      first_(std::move(sources)) {
  if (first_.statistics) statistics_ = std::make_unique<Statistics>(*this);
  if (first_.netlink) netlink_ = std::make_unique<Netlink>(*this);
}

EthtoolReadRunner::~EthtoolReadRunner() { Stop(); }

void EthtoolReadRunner::RunReader(std::shared_ptr<Reader> reader) {
  std::unique_lock<std::mutex> lock(reader->mutex);
  while (true) {
    reader->wake.wait(lock, [&] { return reader->call || reader->quit; });
    if (reader->quit) break;
    Call call = std::exchange(reader->call, nullptr);
    const std::string what = reader->what;
    lock.unlock();
    if (reader->watch.Begin(kSource, what)) {
      call(reader->sources);
      reader->watch.End();
    }
    call = nullptr;  // what it holds is released here, not while the loop reads the answer
    lock.lock();
    reader->done = true;
    reader->finished.notify_all();
  }
  lock.unlock();
  reader->sources = EthtoolSources();  // its sockets are closed on this thread
  if (reader->watch.abandoned()) reader->watch.stuck()->CountAbandonedThread(-1);
}

void EthtoolReadRunner::Start() {
  if (reader_ == nullptr && stuck_->abandoned_threads() < deadline_.max_abandoned) StartReader();
}

void EthtoolReadRunner::StartReader() {
  reader_ = std::make_shared<Reader>(stuck_);
  if (!first_taken_) {
    reader_->sources = std::move(first_);
    first_taken_ = true;
  } else if (deadline_.reopen) {
    reader_->sources = deadline_.reopen();  // on the loop thread: its network namespace
  } else {
    reader_->sources.statistics_error = reader_->sources.netlink_error =
        "the ethtool sources were given up on with a stuck call";
  }
  thread_ = std::thread(RunReader, reader_);
}

void EthtoolReadRunner::Stop() {
  if (reader_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(reader_->mutex);
    reader_->quit = true;
  }
  reader_->wake.notify_all();
  thread_.join();  // idle between calls: returns at once
  reader_.reset();
}

void EthtoolReadRunner::AbandonReader() {
  stuck_->CountAbandonedThread(1);  // before the thread can see quit and count itself out
  {
    std::lock_guard<std::mutex> lock(reader_->mutex);
    reader_->quit = true;  // seen once the stuck call returns
  }
  reader_->wake.notify_all();
  thread_.detach();
  reader_.reset();
}

bool EthtoolReadRunner::AwaitCall() {
  std::unique_lock<std::mutex> lock(reader_->mutex);
  std::optional<StuckCalls::Call> stuck = reader_->watch.AwaitOrTakeStuck(
      lock, reader_->finished, deadline_.call_deadline, [&] { return reader_->done; });
  if (!stuck) return true;
  spdlog::warn(
      "ethtool call stuck for over {} ms: {}; its reading thread is given up on and the netdev "
      "is skipped until the call returns",
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline_.call_deadline).count(),
      stuck->what);
  return false;
}

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
  Start();
  if (reader_ == nullptr)
    return Status::Unavailable(std::to_string(stuck_->abandoned_threads()) +
                               " ethtool reading threads stuck in the kernel");
  const std::string what = name + " " + netdev;
  {
    std::lock_guard<std::mutex> lock(reader_->mutex);
    reader_->call = std::move(call);
    reader_->what = what;
    reader_->done = false;
  }
  reader_->wake.notify_all();
  if (AwaitCall()) return Status::Ok();
  ++stalls_;
  AbandonReader();
  return Status::Unavailable(what + " did not return within " +
                             FormatDuration(deadline_.call_deadline) + ": stuck in the kernel");
}

}  // namespace rocewatch
