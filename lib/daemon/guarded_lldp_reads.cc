#include "daemon/guarded_lldp_reads.h"

#include <spdlog/spdlog.h>

#include <optional>
#include <utility>

#include "os/watched_file_system.h"
#include "sysfs/netdev_mtu.h"

namespace rocewatch {
namespace {

// A reading thread's: its watch, sysfs through it, and its own PFC reader (a DCB socket of its
// own: a thread given up on keeps using its socket until its call returns).
struct LldpReadState {
  LldpReadState(const FileSystem& base, CallWatch& call_watch, HostPfcReader pfc)
      : watch(call_watch), fs(base, call_watch, "sysfs"), read_pfc(std::move(pfc)) {}
  CallWatch& watch;
  WatchedFileSystem fs;
  HostPfcReader read_pfc;
};

using Reader = GuardedReader<LldpReadState>;

void WarnStuck(const Reader& reader, const std::optional<StuckCalls::Call>& stuck) {
  if (!stuck) return;
  spdlog::warn(
      "{} read stuck for over {} ms: {}; the LLDP component's reading thread is given up on",
      stuck->source,
      std::chrono::duration_cast<std::chrono::milliseconds>(reader.deadline()).count(),
      stuck->what);
}

}  // namespace

LldpHostReaders GuardLldpHostReads(const FileSystem& fs, HostPaths paths,
                                   std::function<HostPfcReader()> open_pfc,
                                   GuardedReaderOptions options) {
  if (!options.stuck) options.stuck = std::make_shared<StuckCalls>();
  const bool reads_pfc = open_pfc != nullptr;
  auto reader = std::make_shared<Reader>(
      std::move(options), [&fs, open_pfc = std::move(open_pfc)](CallWatch& watch) {
        return std::make_shared<LldpReadState>(fs, watch, open_pfc ? open_pfc() : nullptr);
      });
  LldpHostReaders readers;
  readers.read_mtu = [reader, paths](const std::string& netdev) -> std::optional<int> {
    auto mtu = std::make_shared<std::optional<int>>();
    std::optional<StuckCalls::Call> stuck;
    Status ran =
        reader->Run([mtu, paths, netdev](
                        LldpReadState& state) { *mtu = ReadNetdevMtu(state.fs, paths, netdev); },
                    &stuck);
    WarnStuck(*reader, stuck);
    return ran.ok() ? *mtu : std::nullopt;
  };
  if (!reads_pfc) return readers;
  readers.read_pfc = [reader](const std::string& netdev) -> StatusOr<std::optional<HostPfc>> {
    using Answer = StatusOr<std::optional<HostPfc>>;
    auto answer = std::make_shared<Answer>(Status::Unavailable("DCB read refused"));
    std::optional<StuckCalls::Call> stuck;
    Status ran = reader->Run(
        [answer, netdev](LldpReadState& state) {
          const std::string what = "RTM_GETDCB " + netdev;
          if (!state.watch.Begin("dcb", what)) {
            *answer = Status::Unavailable(what + " is stuck in the kernel or was given up on");
            return;
          }
          *answer = state.read_pfc(netdev);
          state.watch.End();
        },
        &stuck);
    WarnStuck(*reader, stuck);
    if (!ran.ok()) return ran;
    return std::move(*answer);
  };
  return readers;
}

}  // namespace rocewatch
