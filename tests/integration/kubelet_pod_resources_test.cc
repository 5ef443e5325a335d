// The kubelet pod-resources client against real peers on unix sockets the test creates: a real
// gRPC server implementing v1.PodResourcesLister, and peers that are absent, refuse, hang or
// answer garbage. Every call must end within its deadline with an answer or a clear error.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "consumers/kubelet/kubelet_pod_resources_source.h"
#include "fake_kubelet/fake_kubelet.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

constexpr auto kTimeout = milliseconds(300);
// A call may take its deadline plus gRPC's scheduling; never the old unbounded wait.
constexpr auto kBound = milliseconds(2000);

// A unix socket peer that is not a kubelet: it accepts and then says `reply` (or nothing).
class RawPeer {
 public:
  RawPeer(const std::string& path, bool listen_at_all, std::string reply)
      : reply_(std::move(reply)) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    path.copy(address.sun_path, sizeof(address.sun_path) - 1);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    if (!listen_at_all) {  // the socket file stays; connecting to it is refused
      ::close(fd_);
      fd_ = -1;
      return;
    }
    EXPECT_EQ(::listen(fd_, 8), 0);
    thread_ = std::thread([this] { Serve(); });
  }
  ~RawPeer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    for (int fd : accepted_) ::close(fd);
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  void Serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      accepted_.push_back(client);
      if (!reply_.empty()) (void)!::write(client, reply_.data(), reply_.size());
    }
  }
  std::string reply_;
  int fd_ = -1;
  std::vector<int> accepted_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

class KubeletPodResourcesTest : public ::testing::Test {
 protected:
  std::string SocketPath() const { return dir_.path() + "/kubelet.sock"; }
  std::unique_ptr<grpc::Server> StartKubelet() { return kubelet_.Start(SocketPath()); }
  // ListNow, timed.
  StatusOr<std::vector<PodDeviceAllocation>> TimedList(steady_clock::duration* took) {
    KubeletPodResourcesSource source(SocketPath(), kTimeout);
    auto start = steady_clock::now();
    StatusOr<std::vector<PodDeviceAllocation>> answer = source.ListNow();
    *took = steady_clock::now() - start;
    return answer;
  }

  TempDir dir_;
  FakeKubelet kubelet_;
};

TEST_F(KubeletPodResourcesTest, ListsTheDevicesOfEachPodsContainers) {
  std::unique_ptr<grpc::Server> server = StartKubelet();
  ASSERT_TRUE(server);
  steady_clock::duration took;
  StatusOr<std::vector<PodDeviceAllocation>> answer = TimedList(&took);
  ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  ASSERT_EQ(answer->size(), 2u);
  EXPECT_EQ(
      (*answer)[0],
      (PodDeviceAllocation{
          "trainer-0", "ml", "main", "nvidia.com/sriov_rdma", {"0000:3b:00.2", "0000:3b:00.3"}}));
  EXPECT_EQ((*answer)[1].resource_name, "nvidia.com/gpu");
  server->Shutdown();
}

TEST_F(KubeletPodResourcesTest, AsynchronousCallsNeverBlockAndEachCompletes) {
  std::unique_ptr<grpc::Server> server = StartKubelet();
  KubeletPodResourcesSource source(SocketPath(), kTimeout);
  source.Request();
  source.Request();  // in flight: not a second call
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> answer;
  const auto deadline = steady_clock::now() + kBound;
  while (!answer && steady_clock::now() < deadline) {
    answer = source.TakeAnswer();  // returns at once
    if (!answer) std::this_thread::yield();
  }
  ASSERT_TRUE(answer.has_value());
  ASSERT_TRUE(answer->ok()) << answer->status().ToString();
  EXPECT_EQ((*answer)->size(), 2u);
  EXPECT_EQ(kubelet_.calls.load(), 1);
  EXPECT_FALSE(source.TakeAnswer().has_value());  // nothing more until the next Request
  server->Shutdown();
}

TEST_F(KubeletPodResourcesTest, AnAbsentSocketIsNotFoundAtOnce) {
  steady_clock::duration took;
  StatusOr<std::vector<PodDeviceAllocation>> answer = TimedList(&took);
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.status().code(), StatusCode::kNotFound);
  EXPECT_NE(answer.status().message().find("no pod-resources socket"), std::string::npos);
  EXPECT_LT(took, kTimeout);
}

TEST_F(KubeletPodResourcesTest, ARefusingPeerIsUnavailableWithinTheDeadline) {
  RawPeer refusing(SocketPath(), /*listen_at_all=*/false, "");
  steady_clock::duration took;
  StatusOr<std::vector<PodDeviceAllocation>> answer = TimedList(&took);
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("kubelet pod-resources at unix://"), std::string::npos);
  EXPECT_LT(took, kBound);
}

TEST_F(KubeletPodResourcesTest, AHangingPeerEndsAtTheDeadline) {
  RawPeer hanging(SocketPath(), /*listen_at_all=*/true, "");
  steady_clock::duration took;
  StatusOr<std::vector<PodDeviceAllocation>> answer = TimedList(&took);
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("no answer within"), std::string::npos)
      << answer.status().ToString();
  EXPECT_GE(took, kTimeout - milliseconds(50));
  EXPECT_LT(took, kBound);
}

TEST_F(KubeletPodResourcesTest, AGarbagePeerIsAnErrorNotACrash) {
  RawPeer garbage(SocketPath(), /*listen_at_all=*/true,
                  std::string("HTTP/1.1 400 Bad Request\r\n\r\n\x00\xff\xfe garbage", 40));
  steady_clock::duration took;
  StatusOr<std::vector<PodDeviceAllocation>> answer = TimedList(&took);
  ASSERT_FALSE(answer.ok());
  EXPECT_FALSE(answer.status().message().empty());
  EXPECT_LT(took, kBound);
}

TEST_F(KubeletPodResourcesTest, AKubeletErrorIsReportedWithItsStatus) {
  kubelet_.fail = true;
  std::unique_ptr<grpc::Server> server = StartKubelet();
  steady_clock::duration took;
  StatusOr<std::vector<PodDeviceAllocation>> answer = TimedList(&took);
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("not for you"), std::string::npos);
  server->Shutdown();
}

TEST_F(KubeletPodResourcesTest, DestroyingASourceWithACallInFlightIsClean) {
  RawPeer hanging(SocketPath(), true, "");
  auto start = steady_clock::now();
  {
    KubeletPodResourcesSource source(SocketPath(), std::chrono::seconds(30));
    source.Request();
  }
  EXPECT_LT(steady_clock::now() - start, kBound);  // cancelled, not waited for
}

// One source across a kubelet restart, as the daemon keeps it: the kubelet gone is found absent,
// the restarted one (a new server on the same path) answers the next call within its deadline.
TEST_F(KubeletPodResourcesTest, AKubeletRestartedBetweenCallsAnswersTheNextCall) {
  KubeletPodResourcesSource source(SocketPath(), kTimeout);
  std::unique_ptr<grpc::Server> server = StartKubelet();
  ASSERT_TRUE(source.ListNow().ok());
  server->Shutdown();
  server.reset();
  ::unlink(SocketPath().c_str());
  StatusOr<std::vector<PodDeviceAllocation>> gone = source.ListNow();
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().code(), StatusCode::kNotFound);
  server = StartKubelet();
  ASSERT_TRUE(server);
  const auto start = steady_clock::now();
  StatusOr<std::vector<PodDeviceAllocation>> back = source.ListNow();
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->size(), 2u);
  EXPECT_LT(steady_clock::now() - start, kTimeout);
  EXPECT_EQ(kubelet_.calls.load(), 2);
  server->Shutdown();
}

}  // namespace
}  // namespace rocewatch
