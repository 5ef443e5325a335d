#include "support/fake_host_env.h"

#include "support/fake_rtnetlink_source.h"
#include "support/fake_verbs_api.h"

namespace rocewatch {

FakeHostEnv::FakeHostEnv(const FileSystem& fs) {
  env_.attributes = &fs;
  env_.files = &fs;
  env_.clock = &clock_;
  env_.notifier = &notifier_;
  env_.state_writer = &state_writer_;
  env_.lock_state_file = [](const std::string& path) { return StateFileLock::Acquire(path); };
  env_.verbs = [] { return std::unique_ptr<VerbsApi>(std::make_unique<FakeVerbsApi>()); };
  env_.rtnetlink = [this](int) {
    ++rtnetlink_sources_;
    auto source = std::make_unique<FakeRtnetlinkSource>();
    source->set_dump(dump_);
    return std::unique_ptr<RtnetlinkSource>(std::move(source));
  };
  env_.ethtool = [] {
    EthtoolSources none;
    none.statistics_error = "no ethtool ioctl in tests";
    none.netlink_error = "no ethtool netlink in tests";
    return none;
  };
  env_.kubelet = [](const FileSystem&, const HostPaths&, const ConsumerOptions&) {
    return std::unique_ptr<PodResourcesSource>();
  };
  // No LLDP on the fake host: every netdev is "not in this namespace" (tests that want frames
  // put a FakeLldpNetwork's opener here: support/fake_lldp_socket.h).
  env_.lldp = [](const std::string& netdev) -> StatusOr<std::unique_ptr<LldpSocket>> {
    return Status::NotFound("no LLDP socket for " + netdev + " on the fake host");
  };
  env_.fetch = [this](const HttpUrl& url, Duration) -> StatusOr<FetchedPage> {
    fetched_.push_back(url.host + ":" + std::to_string(url.port) + url.path);
    return Status::Unavailable("connection refused");
  };
}

}  // namespace rocewatch
