#include "consumers/kubelet/kubelet_pod_resources_source.h"

#include <grpcpp/grpcpp.h>
#include <sys/stat.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "consumers/pod_resources_api.grpc.pb.h"
#include "core/duration.h"

namespace rocewatch {
namespace {

// The kubelet's pod-resources server allows answers up to 16 MiB; so do we.
constexpr int kMaxAnswerBytes = 16 * 1024 * 1024;

std::vector<PodDeviceAllocation> AllocationsOf(const v1::ListPodResourcesResponse& response) {
  std::vector<PodDeviceAllocation> allocations;
  for (const v1::PodResources& pod : response.pod_resources()) {
    for (const v1::ContainerResources& container : pod.containers()) {
      for (const v1::ContainerDevices& devices : container.devices()) {
        PodDeviceAllocation allocation;
        allocation.pod = pod.name();
        allocation.pod_namespace = pod.namespace_();
        allocation.container = container.name();
        allocation.resource_name = devices.resource_name();
        allocation.device_ids.assign(devices.device_ids().begin(), devices.device_ids().end());
        allocations.push_back(std::move(allocation));
      }
    }
  }
  return allocations;
}

}  // namespace

struct KubeletPodResourcesSource::Channel {
  explicit Channel(const std::string& socket_path) {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(kMaxAnswerBytes);
    // A refused connect is retried within the call's deadline (gRPC's default backoff starts at
    // one second and grows to two minutes).
    args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 1000);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 10000);
    stub = v1::PodResourcesLister::NewStub(grpc::CreateCustomChannel(
        "unix://" + socket_path, grpc::InsecureChannelCredentials(), args));
  }
  std::unique_ptr<v1::PodResourcesLister::Stub> stub;
  grpc::CompletionQueue queue;
};

struct KubeletPodResourcesSource::Call {
  // Joins the waiter: the call's completion (or its cancellation) has come or comes at once.
  ~Call() {
    if (waiter.joinable()) waiter.join();
  }
  grpc::ClientContext context;
  v1::ListPodResourcesRequest request;
  v1::ListPodResourcesResponse response;
  grpc::Status status;
  std::unique_ptr<grpc::ClientAsyncResponseReader<v1::ListPodResourcesResponse>> reader;
  // The thread blocked in the queue's Next() until this call completes; it sets `completed`.
  std::thread waiter;
  std::mutex mutex;
  std::condition_variable completion;
  bool completed = false;  // GUARDED_BY(mutex)
  bool ok = false;         // GUARDED_BY(mutex): the queue's verdict on the call
};

KubeletPodResourcesSource::KubeletPodResourcesSource(std::string socket_path, Duration timeout)
    : socket_path_(std::move(socket_path)), timeout_(timeout) {}

KubeletPodResourcesSource::~KubeletPodResourcesSource() {
  if (call_) call_->context.TryCancel();
  CloseChannel();  // joins the waiter once the cancelled call completed
}

void KubeletPodResourcesSource::CloseChannel() {
  if (!channel_) return;
  call_.reset();  // joins the waiter, which took the call's completion from the queue
  channel_->queue.Shutdown();
  void* tag = nullptr;
  bool ok = false;
  while (channel_->queue.Next(&tag, &ok)) {
  }
  channel_.reset();
}

void KubeletPodResourcesSource::Request() {
  if (call_ || ready_) return;
  struct stat st;
  if (::stat(socket_path_.c_str(), &st) != 0) {
    ready_ = Status::NotFound("no pod-resources socket at " + socket_path_ +
                              " (not a Kubernetes node, or the socket is not mounted)");
    return;
  }
  if (!channel_) channel_ = std::make_unique<Channel>(socket_path_);
  call_ = std::make_unique<Call>();
  call_->context.set_deadline(std::chrono::system_clock::now() +
                              std::chrono::duration_cast<std::chrono::milliseconds>(timeout_));
  call_->reader =
      channel_->stub->PrepareAsyncList(&call_->context, call_->request, &channel_->queue);
  call_->reader->StartCall();
  call_->reader->Finish(&call_->response, &call_->status, call_.get());
  call_->waiter = std::thread([call = call_.get(), queue = &channel_->queue] {
    void* tag = nullptr;
    bool ok = false;
    const bool got = queue->Next(&tag, &ok);  // the call's deadline bounds this wait
    std::lock_guard<std::mutex> lock(call->mutex);
    call->completed = true;
    call->ok = got && ok;
    call->completion.notify_all();
  });
}

bool KubeletPodResourcesSource::WaitForCompletion(Duration bound) {
  std::unique_lock<std::mutex> lock(call_->mutex);
  return call_->completion.wait_for(lock, bound, [this] { return call_->completed; });
}

StatusOr<std::vector<PodDeviceAllocation>> KubeletPodResourcesSource::Finish() {
  bool ok = false;
  {
    std::lock_guard<std::mutex> lock(call_->mutex);
    ok = call_->completed && call_->ok;
  }
  StatusOr<std::vector<PodDeviceAllocation>> result = ResultOf(ok);
  // No channel is kept between calls: an open one costs gRPC's threads about 0.3 ms of CPU per
  // second while idle, a new one about 0.9 ms per call (docs/benchmarks.md).
  CloseChannel();
  return result;
}

StatusOr<std::vector<PodDeviceAllocation>> KubeletPodResourcesSource::ResultOf(bool ok) const {
  const std::string where = "kubelet pod-resources at " + Describe();
  if (!ok) return Status::IoError(where + ": the call was not completed");
  const grpc::Status& status = call_->status;
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      return AllocationsOf(call_->response);
    case grpc::StatusCode::UNAVAILABLE:
      return Status::Unavailable(where + ": unavailable (" + status.error_message() + ")");
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return Status::IoError(where + ": no answer within " + FormatDuration(timeout_));
    default:
      return Status::IoError(where + ": gRPC status " + std::to_string(status.error_code()) + " (" +
                             status.error_message() + ")");
  }
}

std::optional<StatusOr<std::vector<PodDeviceAllocation>>> KubeletPodResourcesSource::TakeAnswer() {
  if (ready_) return std::exchange(ready_, std::nullopt);
  if (!call_ || !WaitForCompletion(Duration::zero())) return std::nullopt;
  return Finish();
}

StatusOr<std::vector<PodDeviceAllocation>> KubeletPodResourcesSource::ListNow() {
  Request();
  if (ready_) return *std::exchange(ready_, std::nullopt);
  // The call's deadline bounds this wait; the extra second covers gRPC's own scheduling.
  if (!WaitForCompletion(timeout_ + std::chrono::seconds(1))) {
    call_->context.TryCancel();  // the cancelled call completes at once
    WaitForCompletion(std::chrono::seconds(10));
  }
  return Finish();
}

}  // namespace rocewatch
