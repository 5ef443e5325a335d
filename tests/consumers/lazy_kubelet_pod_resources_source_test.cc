// The daemon's kubelet source asks for the kubelet client (the module) only once the socket
// exists, keeps it, and turns a module that cannot be had into an error answer.
#include "consumers/lazy_kubelet_pod_resources_source.h"

#include <gtest/gtest.h>

#include "consumers/dlopen_kubelet_module.h"
#include "support/fake_pod_resources_module.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

const std::vector<PodDeviceAllocation> kPods = {
    {"trainer-0", "ml", "main", "nvidia.com/sriov_rdma", {"0000:3b:00.2"}}};

class LazyKubeletPodResourcesSourceTest : public ::testing::Test {
 protected:
  LazyKubeletPodResourcesSourceTest() { module_->answer = kPods; }
  std::string SocketPath() const { return dir_.path() + "/kubelet.sock"; }
  LazyKubeletPodResourcesSource MakeSource() {
    return LazyKubeletPodResourcesSource(SocketPath(), std::chrono::seconds(2), module_);
  }

  TempDir dir_;
  std::shared_ptr<FakePodResourcesModule> module_ = std::make_shared<FakePodResourcesModule>();
};

TEST_F(LazyKubeletPodResourcesSourceTest, WithoutASocketItAnswersNotFoundAndLoadsNothing) {
  LazyKubeletPodResourcesSource source = MakeSource();
  EXPECT_EQ(source.Describe(), "unix://" + SocketPath());
  StatusOr<std::vector<PodDeviceAllocation>> now = source.ListNow();
  ASSERT_FALSE(now.ok());
  EXPECT_EQ(now.status().code(), StatusCode::kNotFound);
  EXPECT_NE(now.status().message().find("no pod-resources socket at " + SocketPath()),
            std::string::npos);
  source.Request();
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> answer = source.TakeAnswer();
  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(source.TakeAnswer().has_value());  // one answer per request
  EXPECT_TRUE(module_->sockets.empty());
  EXPECT_FALSE(source.client_created());
}

// A socket the operator named that is not there is a failed read (logged, a read_failed
// warning), not the quiet "not a Kubernetes node" of the default path.
TEST_F(LazyKubeletPodResourcesSourceTest, AConfiguredSocketThatIsAbsentIsAnErrorNotAState) {
  LazyKubeletPodResourcesSource source(SocketPath(), std::chrono::seconds(2), module_,
                                       /*configured=*/true);
  StatusOr<std::vector<PodDeviceAllocation>> now = source.ListNow();
  ASSERT_FALSE(now.ok());
  EXPECT_EQ(now.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(now.status().message().find("the path --kubelet-socket names"), std::string::npos)
      << now.status().message();
  EXPECT_TRUE(module_->sockets.empty());
  dir_.WriteFile("kubelet.sock", "");
  EXPECT_TRUE(source.ListNow().ok());  // it appears: the client is created as at any path
}

TEST(KubeletPodResourcesSourceFor, OnlyAnExplicitPathMakesAnAbsentSocketAnError) {
  TempDir root;
  auto module = std::make_shared<FakePodResourcesModule>();
  HostPaths paths;
  paths.host_root = root.path();
  ConsumerOptions options;
  std::unique_ptr<PodResourcesSource> by_default =
      KubeletPodResourcesSourceFor(paths, options, module);
  ASSERT_NE(by_default, nullptr);
  EXPECT_EQ(by_default->ListNow().status().code(), StatusCode::kNotFound);
  options.kubelet_socket = root.path() + "/elsewhere/kubelet.sock";
  std::unique_ptr<PodResourcesSource> configured =
      KubeletPodResourcesSourceFor(paths, options, module);
  ASSERT_NE(configured, nullptr);
  EXPECT_EQ(configured->ListNow().status().code(), StatusCode::kUnavailable);
  options.kubelet_socket = "none";
  EXPECT_EQ(KubeletPodResourcesSourceFor(paths, options, module), nullptr);
}

TEST_F(LazyKubeletPodResourcesSourceTest, TheSocketAppearingCreatesTheClientOnceAndKeepsIt) {
  LazyKubeletPodResourcesSource source = MakeSource();
  ASSERT_EQ(source.ListNow().status().code(), StatusCode::kNotFound);
  dir_.WriteFile("kubelet.sock", "");  // stat() is all the source looks at
  StatusOr<std::vector<PodDeviceAllocation>> now = source.ListNow();
  ASSERT_TRUE(now.ok()) << now.status().ToString();
  EXPECT_EQ(*now, kPods);
  source.Request();
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> answer = source.TakeAnswer();
  ASSERT_TRUE(answer.has_value());
  ASSERT_TRUE(answer->ok());
  EXPECT_EQ(**answer, kPods);
  EXPECT_EQ(module_->sockets, std::vector<std::string>{SocketPath()});
  EXPECT_TRUE(source.client_created());
}

TEST_F(LazyKubeletPodResourcesSourceTest, AModuleThatCannotBeHadIsTheAnswerAndAskedForOnce) {
  module_->error = Status::Unavailable("no kubelet module (librocewatch-kubelet.so) at /x");
  dir_.WriteFile("kubelet.sock", "");
  LazyKubeletPodResourcesSource source = MakeSource();
  for (int call = 0; call < 2; ++call) {
    StatusOr<std::vector<PodDeviceAllocation>> now = source.ListNow();
    ASSERT_FALSE(now.ok());
    EXPECT_EQ(now.status().code(), StatusCode::kUnavailable);
    EXPECT_EQ(now.status().message(), module_->error->message());
    source.Request();
    std::optional<StatusOr<std::vector<PodDeviceAllocation>>> answer = source.TakeAnswer();
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(answer->status().code(), StatusCode::kUnavailable);
  }
  EXPECT_EQ(module_->sockets.size(), 1u);
  EXPECT_FALSE(source.client_created());
}

TEST(KubeletModuleCandidates, NextToTheBinaryThenTheInstalledDirectoryOrTheOverrideAlone) {
  EXPECT_EQ(KubeletModuleCandidates("", "/usr/local/bin/rocewatch"),
            (std::vector<std::string>{"/usr/local/bin/librocewatch-kubelet.so",
                                      "/usr/local/bin/../lib/rocewatch/librocewatch-kubelet.so"}));
  EXPECT_EQ(KubeletModuleCandidates("/opt/k.so", "/usr/local/bin/rocewatch"),
            std::vector<std::string>{"/opt/k.so"});
  EXPECT_TRUE(KubeletModuleCandidates("", "").empty());
}

}  // namespace
}  // namespace rocewatch
