#pragma once
// PodResourcesSource through the kubelet's gRPC pod-resources API on a unix socket
// (pod_resources_api.proto). Asynchronous unary calls on a completion queue that TakeAnswer polls
// without waiting; every call carries a deadline, so an absent, refusing, hanging or garbage
// peer ends each call within `timeout` as an error:
//   no socket file         NotFound     (a state: not a Kubernetes node, or the socket not mounted)
//   refused / not gRPC     Unavailable
//   no answer in time      IoError      ("no answer within 2s")
//   unparsable, UNIMPLEMENTED, other gRPC errors: IoError with the gRPC status
//
// Each call opens its own channel and closes it when it completes: the daemon calls once per
// --consumer-scan-interval, and an idle open channel costs more CPU than connecting again
// (bench/micro/kubelet_call_bench.cc, docs/benchmarks.md).
//
// The completion queue is waited on by a thread of the call's own (started by Request, joined
// when the answer is taken): gRPC makes progress on a connection only while a thread polls the
// queue, and the daemon's loop looks at it once per poll interval, too seldom for a connect to
// finish within the call's deadline.
//
// Threading: one thread at a time (the event loop); gRPC runs its own threads inside.
//
// Built into the kubelet module (librocewatch-kubelet.so, kubelet_module_abi.h), which the binary
// loads only where the socket exists (LazyKubeletPodResourcesSource); tests and benchmarks link it
// directly (rocewatch_kubelet_client).

#include <memory>
#include <string>

#include "consumers/pod_resources.h"
#include "core/clock.h"

namespace rocewatch {

class KubeletPodResourcesSource final : public PodResourcesSource {
 public:
  KubeletPodResourcesSource(std::string socket_path, Duration timeout);
  ~KubeletPodResourcesSource() override;  // cancels a call in flight and drains the queue

  std::string Describe() const override { return "unix://" + socket_path_; }
  void Request() override;
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> TakeAnswer() override;
  StatusOr<std::vector<PodDeviceAllocation>> ListNow() override;

 private:
  struct Call;
  struct Channel;
  // The completed call's result; then the call and its channel are closed. REQUIRES: call_
  StatusOr<std::vector<PodDeviceAllocation>> Finish();
  StatusOr<std::vector<PodDeviceAllocation>> ResultOf(bool ok) const;  // REQUIRES: call_
  void CloseChannel();  // shuts the queue down, drains it, drops the call and the channel
  // Waits at most `bound` for the call's completion; true if it completed. REQUIRES: call_
  bool WaitForCompletion(Duration bound);

  const std::string socket_path_;
  const Duration timeout_;
  std::unique_ptr<Channel> channel_;
  std::unique_ptr<Call> call_;                                       // in flight
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> ready_;  // answered without a call
};

}  // namespace rocewatch
