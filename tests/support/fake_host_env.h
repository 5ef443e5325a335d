#pragma once
// A HostEnv of fakes, for running the commands in-process (RunDiagnose, Daemon): one FileSystem
// for every read (a FakeFileSystem or a fixture tree), a FakeClock, a recording service manager,
// libibverbs with no device (GIDs through sysfs), rtnetlink answering a scripted dump, no ethtool
// kernel interface (recordings only), no kubelet and no daemon to fetch from. The state file is
// written and locked for real (a test points --state-file below its own directory; a
// FakeStateFileWriter in env().state_writer records or fails the writes). Each part can be
// replaced through env() before a command runs.

#include <memory>
#include <string>
#include <vector>

#include "daemon/host_env.h"
#include "netlink/netlink_event.h"
#include "support/fake_clock.h"
#include "support/fake_service_notifier.h"

namespace rocewatch {

class FakeHostEnv {
 public:
  // REQUIRES: fs outlives this object.
  explicit FakeHostEnv(const FileSystem& fs);
  FakeHostEnv(const FakeHostEnv&) = delete;
  FakeHostEnv& operator=(const FakeHostEnv&) = delete;

  HostEnv& env() { return env_; }
  FakeClock& clock() { return clock_; }
  FakeServiceNotifier& notifier() { return notifier_; }

  // What every rtnetlink source made from now on dumps: the namespace's links, addresses, rules
  // and routes.
  NetlinkDump& netlink() { return dump_; }
  // rtnetlink sources made, and the URLs fetched.
  int rtnetlink_sources() const { return rtnetlink_sources_; }
  const std::vector<std::string>& fetched() const { return fetched_; }

 private:
  FakeClock clock_;
  FakeServiceNotifier notifier_;
  PosixStateFileWriter state_writer_;  // a test's state file is below its own directory
  NetlinkDump dump_;
  int rtnetlink_sources_ = 0;
  std::vector<std::string> fetched_;
  HostEnv env_;
};

}  // namespace rocewatch
