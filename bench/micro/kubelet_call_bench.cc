// The kubelet pod-resources call (lib/sources/consumers/kubelet/kubelet_pod_resources_source.h)
// against a real gRPC server on a unix socket, run in a child process so that this process's CPU
// time is the client's alone (its own gRPC threads included). The server answers as a busy GPU node
// would: 110 pods, 8 of them training pods with an SR-IOV VF and a GPU each, the rest without
// devices.
//   BM_KubeletIdleBeforeGrpc   one second of this process asleep before it used gRPC: the baseline
//   BM_KubeletList             one call as the daemon makes it every --consumer-scan-interval
//                              (connect, List, close), process CPU and wall time per call
//   BM_KubeletIdleBetweenCalls one second between two such calls
//   BM_KeptChannelList, BM_KeptChannelIdle  the same with one channel kept open (the design not
//                              taken: its idle second costs more than a connect)
//   BM_KubeletTakeAnswerIdle   what the daemon's event loop pays per snapshot with no call in
//   flight
// docs/benchmarks.md turns the figures into a share of a core.

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "consumers/kubelet/kubelet_pod_resources_source.h"
#include "consumers/pod_resources_api.grpc.pb.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

constexpr int kPods = 110;
constexpr int kTrainingPods = 8;
constexpr auto kTimeout = std::chrono::seconds(2);

class BusyNodeKubelet final : public v1::PodResourcesLister::Service {
 public:
  grpc::Status List(grpc::ServerContext*, const v1::ListPodResourcesRequest*,
                    v1::ListPodResourcesResponse* response) override {
    for (int i = 0; i < kPods; ++i) {
      v1::PodResources* pod = response->add_pod_resources();
      pod->set_name((i < kTrainingPods ? "trainer-" : "service-") + std::to_string(i));
      pod->set_namespace_(i < kTrainingPods ? "ml" : "default");
      v1::ContainerResources* container = pod->add_containers();
      container->set_name("main");
      pod->add_containers()->set_name("sidecar");
      if (i >= kTrainingPods) continue;
      v1::ContainerDevices* vf = container->add_devices();
      vf->set_resource_name("nvidia.com/sriov_rdma");
      vf->add_device_ids("0000:3b:00." + std::to_string(2 + i));
      v1::ContainerDevices* gpu = container->add_devices();
      gpu->set_resource_name("nvidia.com/gpu");
      gpu->add_device_ids("GPU-0d7c3d53-" + std::to_string(i));
    }
    return grpc::Status::OK;
  }
};

// The server, in a child process that lives as long as this one (it dies with its parent).
// Forked before this process uses gRPC at all.
const std::string& ServerSocket() {
  static const std::string* socket = [] {
    auto* dir = new TempDir();
    auto* path = new std::string(dir->path() + "/kubelet.sock");
    int ready[2];
    if (::pipe(ready) != 0) std::abort();
    const pid_t child = ::fork();
    if (child < 0) std::abort();
    if (child == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      BusyNodeKubelet kubelet;
      grpc::ServerBuilder builder;
      builder.AddListeningPort("unix://" + *path, grpc::InsecureServerCredentials());
      builder.RegisterService(&kubelet);
      std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
      char byte = server ? 1 : 0;
      (void)!::write(ready[1], &byte, 1);
      if (server) server->Wait();
      ::_exit(0);
    }
    char byte = 0;
    if (::read(ready[0], &byte, 1) != 1 || byte != 1) std::abort();
    return path;
  }();
  return *socket;
}

// Each iteration one second asleep: the process CPU time per iteration is what gRPC's threads
// (and the benchmark library) spend per idle second.
void SleepASecondPerIteration(benchmark::State& state) {
  for (auto _ : state) std::this_thread::sleep_for(std::chrono::seconds(1));
}
void AsIdleSeconds(benchmark::internal::Benchmark* b) {
  b->MeasureProcessCPUTime()->UseRealTime()->Iterations(10)->Unit(benchmark::kMicrosecond);
}

// One second of this process asleep before it used gRPC at all: the baseline of the idle figures
// (the benchmark library's own cost). Registered first, so it runs before any channel exists.
void BM_KubeletIdleBeforeGrpc(benchmark::State& state) {
  ServerSocket();  // the server process exists, as in the others
  SleepASecondPerIteration(state);
}
BENCHMARK(BM_KubeletIdleBeforeGrpc)->Apply(AsIdleSeconds);

bool AnswerIsTheBusyNode(const StatusOr<std::vector<PodDeviceAllocation>>& answer) {
  return answer.ok() && answer->size() == 2 * kTrainingPods;
}

// The daemon's call: KubeletPodResourcesSource, kept across calls as the daemon keeps it (each
// call connects, lists and closes its channel).
void BM_KubeletList(benchmark::State& state) {
  KubeletPodResourcesSource source(ServerSocket(), kTimeout);
  for (auto _ : state) {
    StatusOr<std::vector<PodDeviceAllocation>> answer = source.ListNow();
    if (!AnswerIsTheBusyNode(answer)) return state.SkipWithError("a call failed");
    benchmark::DoNotOptimize(answer);
  }
}
BENCHMARK(BM_KubeletList)->MeasureProcessCPUTime()->UseRealTime()->Unit(benchmark::kMicrosecond);

// One second between two of the daemon's calls: the source alive, no channel open.
void BM_KubeletIdleBetweenCalls(benchmark::State& state) {
  KubeletPodResourcesSource source(ServerSocket(), kTimeout);
  if (!AnswerIsTheBusyNode(source.ListNow()))
    return state.SkipWithError("no answer from the test kubelet");
  SleepASecondPerIteration(state);
}
BENCHMARK(BM_KubeletIdleBetweenCalls)->Apply(AsIdleSeconds);

// The design not taken, for comparison: one channel and completion queue kept open for the
// daemon's life, each call made on them asynchronously (as the source did before).
struct KeptChannel {
  KeptChannel()
      : stub(v1::PodResourcesLister::NewStub(
            grpc::CreateChannel("unix://" + ServerSocket(), grpc::InsecureChannelCredentials()))) {}
  ~KeptChannel() {
    queue.Shutdown();
    void* tag = nullptr;
    bool ok = false;
    while (queue.Next(&tag, &ok)) {
    }
  }
  bool List() {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + kTimeout);
    v1::ListPodResourcesRequest request;
    v1::ListPodResourcesResponse response;
    grpc::Status status;
    auto reader = stub->PrepareAsyncList(&context, request, &queue);
    reader->StartCall();
    reader->Finish(&response, &status, &context);
    void* tag = nullptr;
    bool ok = false;
    return queue.Next(&tag, &ok) && ok && status.ok() && response.pod_resources_size() == kPods;
  }
  std::unique_ptr<v1::PodResourcesLister::Stub> stub;
  grpc::CompletionQueue queue;
};

void BM_KeptChannelList(benchmark::State& state) {
  KeptChannel kept;
  if (!kept.List()) return state.SkipWithError("no answer from the test kubelet");
  for (auto _ : state)
    if (!kept.List()) return state.SkipWithError("a call failed");
}
BENCHMARK(BM_KeptChannelList)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

void BM_KeptChannelIdle(benchmark::State& state) {
  KeptChannel kept;
  if (!kept.List()) return state.SkipWithError("no answer from the test kubelet");
  SleepASecondPerIteration(state);
}
BENCHMARK(BM_KeptChannelIdle)->Apply(AsIdleSeconds);

void BM_KubeletTakeAnswerIdle(benchmark::State& state) {
  KubeletPodResourcesSource source(ServerSocket(), kTimeout);
  if (!AnswerIsTheBusyNode(source.ListNow()))
    return state.SkipWithError("no answer from the test kubelet");
  for (auto _ : state) benchmark::DoNotOptimize(source.TakeAnswer());
}
BENCHMARK(BM_KubeletTakeAnswerIdle)->Unit(benchmark::kNanosecond);

}  // namespace
}  // namespace rocewatch
