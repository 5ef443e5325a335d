#pragma once
// A kubelet pod-resources server for tests: v1.PodResourcesLister/List answering two pods, one of
// whose containers holds two SR-IOV RDMA VFs and a GPU (the other holds nothing), or a
// PERMISSION_DENIED error when `fail` is set. Counts the calls.

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <memory>
#include <string>

#include "consumers/pod_resources_api.grpc.pb.h"

namespace rocewatch {

class FakeKubelet final : public v1::PodResourcesLister::Service {
 public:
  grpc::Status List(grpc::ServerContext*, const v1::ListPodResourcesRequest*,
                    v1::ListPodResourcesResponse* response) override;

  // A server with this service on unix://socket_path; null if it cannot listen.
  std::unique_ptr<grpc::Server> Start(const std::string& socket_path);

  std::atomic<int> calls{0};
  std::atomic<bool> fail{false};
};

}  // namespace rocewatch
