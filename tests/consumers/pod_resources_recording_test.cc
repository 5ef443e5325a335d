#include "consumers/pod_resources_recording.h"

#include <gtest/gtest.h>

#include "consumers/recorded_pod_resources_source.h"
#include "job_awareness/consumer_merge.h"
#include "support/fake_file_system.h"
#include "support/fake_pod_resources_module.h"

namespace rocewatch {
namespace {

std::vector<PodDeviceAllocation> TwoPods() {
  return {{"trainer-0", "ml", "main", "rdma/hca_shared_devices_a", {"1"}},
          {"trainer-0", "ml", "main", "nvidia.com/gpu", {"GPU-1", "GPU-2"}},
          {"trainer-0", "ml", "sidecar", "nvidia.com/sriov_rdma", {"0000:3b:00.2"}},
          {"other", "default", "main", "nvidia.com/gpu", {}}};
}

TEST(PodResourcesRecordingTest, AnAnswerReadsBackAsItWas) {
  std::string text = FormatPodResourcesRecording("unix:///kubelet.sock", TwoPods());
  StatusOr<std::vector<PodDeviceAllocation>> back = ParsePodResourcesRecording(text);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, TwoPods());
  EXPECT_NE(text.find("\"podResources\""), std::string::npos);
  EXPECT_NE(text.find("\"resourceName\": \"nvidia.com/gpu\""), std::string::npos);
}

TEST(PodResourcesRecordingTest, AFailedCallReadsBackWithItsCodeAndWords) {
  StatusOr<std::vector<PodDeviceAllocation>> failed =
      Status::NotFound("no pod-resources socket at /host/var/lib/kubelet/x.sock");
  StatusOr<std::vector<PodDeviceAllocation>> back =
      ParsePodResourcesRecording(FormatPodResourcesRecording("unix:///x.sock", failed));
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(back.status().message(), failed.status().message());
  back = ParsePodResourcesRecording(FormatPodResourcesRecording(
      "unix:///x.sock", Status::IoError("kubelet pod-resources: no answer within 2s")));
  EXPECT_EQ(back.status().code(), StatusCode::kIoError);
}

// What `grpcurl ... v1.PodResourcesLister/List` prints: the kubelet's fields rocewatch does not
// use are ignored, empty lists are absent.
TEST(PodResourcesRecordingTest, ReadsTheProtobufJsonOfTheKubeletsAnswer) {
  StatusOr<std::vector<PodDeviceAllocation>> back = ParsePodResourcesRecording(R"({
    "podResources": [
      {"name": "trainer-0", "namespace": "ml", "containers": [
        {"name": "main", "cpuIds": ["3", "4"], "devices": [
          {"resourceName": "nvidia.com/sriov_rdma", "deviceIds": ["0000:3b:00.2"],
           "topology": {"nodes": [{"ID": "0"}]}}]}]},
      {"name": "web", "namespace": "default", "containers": [{"name": "nginx"}]}]})");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0], (PodDeviceAllocation{
                            "trainer-0", "ml", "main", "nvidia.com/sriov_rdma", {"0000:3b:00.2"}}));
  back = ParsePodResourcesRecording("{}");
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->empty());
}

TEST(PodResourcesRecordingTest, GarbageIsCorruptNeverACrash) {
  for (const char* garbage :
       {"", "not json", "[1, 2]", R"({"error": 3})", R"({"podResources": [1]})",
        R"({"podResources": [{"containers": [7]}]})",
        R"({"podResources": [{"containers": [{"devices": ["x"]}]}]})"}) {
    StatusOr<std::vector<PodDeviceAllocation>> back = ParsePodResourcesRecording(garbage);
    ASSERT_FALSE(back.ok()) << garbage;
    EXPECT_EQ(back.status().code(), StatusCode::kCorrupt) << garbage;
  }
}

class PodResourcesSourceForTest : public ::testing::Test {
 protected:
  const HostPaths paths_ = HostPaths::ForRoots("/bundle");
  const std::string recording_ = "/bundle/rocewatch/kubelet/pod-resources.json";
  FakeFileSystem fs_;
  std::shared_ptr<FakePodResourcesModule> module_ = std::make_shared<FakePodResourcesModule>();
};

TEST_F(PodResourcesSourceForTest, ARecordingUnderTheHostRootStandsForTheSocket) {
  fs_.AddFile(recording_, FormatPodResourcesRecording("unix:///kubelet.sock", TwoPods()));
  std::unique_ptr<PodResourcesSource> source = PodResourcesSourceFor(fs_, paths_, {}, module_);
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->Describe(), "recording " + recording_);
  EXPECT_EQ(*source->ListNow(), TwoPods());
  // Read again at every call: a rewritten recording drives the daemon.
  fs_.AddFile(recording_, FormatPodResourcesRecording("unix:///kubelet.sock",
                                                      std::vector<PodDeviceAllocation>{}));
  source->Request();
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> answer = source->TakeAnswer();
  ASSERT_TRUE(answer.has_value());
  EXPECT_TRUE(answer->ok() && (*answer)->empty());
  EXPECT_FALSE(source->TakeAnswer().has_value());
}

TEST_F(PodResourcesSourceForTest, ANamedSocketOrNoneWinsOverTheRecording) {
  fs_.AddFile(recording_, FormatPodResourcesRecording("unix:///kubelet.sock", TwoPods()));
  ConsumerOptions options;
  options.kubelet_socket = "/run/kubelet.sock";
  EXPECT_EQ(PodResourcesSourceFor(fs_, paths_, options, module_)->Describe(),
            "unix:///run/kubelet.sock");
  options.kubelet_socket = "none";
  EXPECT_EQ(PodResourcesSourceFor(fs_, paths_, options, module_), nullptr);
}

TEST_F(PodResourcesSourceForTest, WithoutARecordingTheSocketUnderTheHostRoot) {
  EXPECT_EQ(PodResourcesSourceFor(fs_, paths_, {}, module_)->Describe(),
            "unix:///bundle/var/lib/kubelet/pod-resources/kubelet.sock");
}

TEST_F(PodResourcesSourceForTest, AnUnreadableOrGarbledRecordingIsAnErrorNamingIt) {
  fs_.AddFile(recording_, "{garbled");
  std::unique_ptr<PodResourcesSource> source = PodResourcesSourceFor(fs_, paths_, {}, module_);
  StatusOr<std::vector<PodDeviceAllocation>> answer = source->ListNow();
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.status().code(), StatusCode::kIoError);
  EXPECT_NE(answer.status().message().find(recording_), std::string::npos);
  fs_.FailReads(recording_, EACCES);
  source = PodResourcesSourceFor(fs_, paths_, {}, module_);
  EXPECT_EQ(source->Describe(), "recording " + recording_);
  EXPECT_FALSE(source->ListNow().ok());
}

// A support bundle keeps <device>/device as a directory: its uevent gives the PCI address.
TEST(PciAddressesOfDevicesTest, FromTheDeviceLinkOrElseFromItsUevent) {
  FakeFileSystem fs;
  const HostPaths paths = HostPaths::ForRoots("/");
  fs.AddLink("/sys/class/infiniband/mlx5_0/device", "../../../0000:3b:00.0");
  fs.AddFile("/sys/class/infiniband/mlx5_1/device/uevent",
             "DRIVER=mlx5_core\nPCI_ID=15B3:101E\nPCI_SLOT_NAME=0000:3b:00.2\n");
  fs.AddFile("/sys/class/infiniband/mlx5_2/device/uevent", "DRIVER=mlx5_core\n");
  std::map<std::string, std::string> expected = {{"0000:3b:00.0", "mlx5_0"},
                                                 {"0000:3b:00.2", "mlx5_1"}};
  EXPECT_EQ(PciAddressesOfDevices(fs, paths, {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}), expected);
}

}  // namespace
}  // namespace rocewatch
