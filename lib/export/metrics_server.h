#pragma once
// The HTTP endpoint: /metrics (prometheus-cpp Exposer over a SnapshotCollectable) and /healthz
// (200 while the health check passes, 503 otherwise). TLS is deliberately not offered: terminate it
// outside (kube-rbac-proxy), see docs/deploy.md.

#include <functional>
#include <memory>
#include <string>

#include "core/status.h"
#include "export/listen_address.h"
#include "export/snapshot_collectable.h"

namespace prometheus {
class Exposer;
}

namespace rocewatch {

class MetricsServer {
 public:
  // Returns true while the daemon is healthy. Called from the server's threads: must be
  // thread-safe and cheap.
  using HealthCheck = std::function<bool()>;

  // Binds and starts serving. Errors: Unavailable with the reason (port in use, bad address).
  static StatusOr<std::unique_ptr<MetricsServer>> Start(
      const ListenAddress& address, std::shared_ptr<SnapshotCollectable> metrics,
      HealthCheck health);
  ~MetricsServer();

  // The bound port (the chosen one when started with port 0).
  int port() const { return port_; }

 private:
  MetricsServer() = default;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::shared_ptr<SnapshotCollectable> metrics_;
  int port_ = 0;
};

}  // namespace rocewatch
