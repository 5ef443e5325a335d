// The LLDP component's host reads behind the read deadline: a rail's MTU attribute or DCB answer
// that does not return is named (sysfs path; "RTM_GETDCB <netdev>"), its caller gets what an
// unreadable value gives without waiting past the deadline, and the next read runs on a new thread
// with a new DCB reader while the stuck one is refused at once. Blocking is a condition the test
// releases: no sleeps in what is tested.
#include "daemon/guarded_lldp_reads.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "support/blocking_file_system.h"
#include "support/fake_file_system.h"
#include "support/gate.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;

// DCB answers: eth0 answers at once, eth1 waits until Release().
class FakeDcb {
 public:
  HostPfcReader Open() {
    ++opened;
    return [this](const std::string& netdev) -> StatusOr<std::optional<HostPfc>> {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ++calls_[netdev];
      }
      if (netdev == "eth1") eth1_.Wait();
      return std::optional<HostPfc>(HostPfc{.enabled = 0x08, .capability = 8});
    };
  }
  void Release() { eth1_.Open(); }
  int Calls(const std::string& netdev) {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_[netdev];
  }

  int opened = 0;  // the loop thread only

 private:
  Gate eth1_;
  std::mutex mutex_;
  std::map<std::string, int> calls_;  // GUARDED_BY(mutex_)
};

class GuardedLldpReadsTest : public ::testing::Test {
 protected:
  GuardedLldpReadsTest() {
    files_.AddFile("/sys/class/net/eth0/mtu", "9000\n");
    files_.AddFile("/sys/class/net/eth1/mtu", "4200\n");
  }
  GuardedReaderOptions Options() {
    GuardedReaderOptions options;
    options.stuck = stuck_;
    options.deadline = milliseconds(50);
    return options;
  }

  FakeFileSystem files_;
  BlockingFileSystem fs_{files_};
  FakeDcb dcb_;
  std::shared_ptr<StuckCalls> stuck_ = std::make_shared<StuckCalls>();
};

TEST_F(GuardedLldpReadsTest, AStuckMtuReadIsNamedAndTheOtherRailsAreStillRead) {
  fs_.Block("/sys/class/net/eth1/mtu");
  LldpHostReaders reads = GuardLldpHostReads(fs_, HostPaths::ForRoots("/"), nullptr, Options());
  EXPECT_EQ(reads.read_pfc, nullptr);  // no DCB: not read
  EXPECT_EQ(reads.read_mtu("eth0"), 9000);
  EXPECT_EQ(reads.read_mtu("eth1"), std::nullopt);
  ASSERT_EQ(stuck_->List().size(), 1u);
  EXPECT_EQ(stuck_->List()[0].source, "sysfs");
  EXPECT_EQ(stuck_->List()[0].what, "/sys/class/net/eth1/mtu");
  EXPECT_EQ(reads.read_mtu("eth0"), 9000);          // a new thread
  EXPECT_EQ(reads.read_mtu("eth1"), std::nullopt);  // refused at once
  EXPECT_EQ(fs_.waiting(), 1);
  fs_.Release();
  EXPECT_TRUE(Eventually([&] { return stuck_->abandoned_threads() == 0; }));
  EXPECT_EQ(reads.read_mtu("eth1"), 4200);
}

TEST_F(GuardedLldpReadsTest, AStuckDcbReadIsNamedAndANewThreadGetsANewReader) {
  LldpHostReaders reads = GuardLldpHostReads(
      fs_, HostPaths::ForRoots("/"), [this] { return dcb_.Open(); }, Options());
  ASSERT_NE(reads.read_pfc, nullptr);
  StatusOr<std::optional<HostPfc>> eth0 = reads.read_pfc("eth0");
  ASSERT_TRUE(eth0.ok());
  EXPECT_EQ((*eth0)->enabled, 0x08);
  EXPECT_EQ(dcb_.opened, 1);

  StatusOr<std::optional<HostPfc>> eth1 = reads.read_pfc("eth1");
  EXPECT_EQ(eth1.status().code(), StatusCode::kUnavailable);
  ASSERT_EQ(stuck_->List().size(), 1u);
  EXPECT_EQ(stuck_->List()[0].source, "dcb");
  EXPECT_EQ(stuck_->List()[0].what, "RTM_GETDCB eth1");

  EXPECT_TRUE(reads.read_pfc("eth0").ok());  // a new thread, with a DCB reader of its own
  EXPECT_EQ(dcb_.opened, 2);
  EXPECT_FALSE(reads.read_pfc("eth1").ok());  // refused while the first is stuck
  EXPECT_EQ(dcb_.Calls("eth1"), 1);
  EXPECT_EQ(reads.read_mtu("eth0"), 9000);  // the MTU shares the thread

  dcb_.Release();
  EXPECT_TRUE(Eventually([&] { return stuck_->abandoned_threads() == 0 && stuck_->size() == 0; }));
  EXPECT_TRUE(reads.read_pfc("eth1").ok());
}

}  // namespace
}  // namespace rocewatch
