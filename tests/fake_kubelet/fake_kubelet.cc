#include "fake_kubelet/fake_kubelet.h"

namespace rocewatch {

grpc::Status FakeKubelet::List(grpc::ServerContext*, const v1::ListPodResourcesRequest*,
                               v1::ListPodResourcesResponse* response) {
  ++calls;
  if (fail) return grpc::Status(grpc::StatusCode::PERMISSION_DENIED, "not for you");
  v1::PodResources* pod = response->add_pod_resources();
  pod->set_name("trainer-0");
  pod->set_namespace_("ml");
  v1::ContainerResources* container = pod->add_containers();
  container->set_name("main");
  v1::ContainerDevices* vfs = container->add_devices();
  vfs->set_resource_name("nvidia.com/sriov_rdma");
  vfs->add_device_ids("0000:3b:00.2");
  vfs->add_device_ids("0000:3b:00.3");
  v1::ContainerDevices* gpus = container->add_devices();
  gpus->set_resource_name("nvidia.com/gpu");
  gpus->add_device_ids("GPU-0d7c3d53");
  v1::PodResources* web = response->add_pod_resources();
  web->set_name("web-1");
  web->set_namespace_("shop");
  web->add_containers()->set_name("nginx");  // no devices: not listed
  return grpc::Status::OK;
}

std::unique_ptr<grpc::Server> FakeKubelet::Start(const std::string& socket_path) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix://" + socket_path, grpc::InsecureServerCredentials());
  builder.RegisterService(this);
  return builder.BuildAndStart();
}

}  // namespace rocewatch
