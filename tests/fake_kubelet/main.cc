// rocewatch-fake-kubelet SOCKET: serves FakeKubelet's pod-resources answer on unix://SOCKET until
// SIGTERM or SIGINT (then exits 0), for tests that must not link gRPC themselves (the kubelet
// module's loader test) and for measuring the daemon with the kubelet module loaded
// (docs/benchmarks.md). Exits 1 with a one-line error if it cannot listen.
#include <signal.h>

#include <cstdio>

#include "fake_kubelet/fake_kubelet.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: rocewatch-fake-kubelet SOCKET\n");
    return 2;
  }
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);  // before gRPC starts its threads
  rocewatch::FakeKubelet kubelet;
  std::unique_ptr<grpc::Server> server = kubelet.Start(argv[1]);
  if (!server) {
    std::fprintf(stderr, "rocewatch-fake-kubelet: cannot listen on unix://%s\n", argv[1]);
    return 1;
  }
  int signal = 0;
  sigwait(&stop, &signal);
  server->Shutdown();
  return 0;
}
