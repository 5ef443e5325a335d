#pragma once
// The HTTP endpoint: /metrics (prometheus-cpp Exposer over what the loop publishes: an
// OnDemandExposition in the daemon, a SnapshotCollectable in tests), /healthz
// (200 while the health check passes, 503 otherwise) and /api/v1/findings (the last published
// findings document as application/json; 503 before the first one, 404 when not given). TLS is
// deliberately not offered: terminate it outside (kube-rbac-proxy), see docs/deploy.md.

#include <prometheus/collectable.h>

#include <functional>
#include <memory>
#include <string>

#include "core/status.h"
#include "export/listen_address.h"
#include "export/published_document.h"

namespace prometheus {
class Exposer;
}

namespace rocewatch {

class MetricsServer {
 public:
  // Returns true while the daemon is healthy. Called from the server's threads: must be
  // thread-safe and cheap.
  using HealthCheck = std::function<bool()>;

  // Binds and starts serving. Errors: Unavailable with the reason, in words (port in use, bad
  // address, permission).
  static StatusOr<std::unique_ptr<MetricsServer>> Start(
      const ListenAddress& address, std::shared_ptr<prometheus::Collectable> metrics,
      HealthCheck health, std::shared_ptr<const PublishedDocument> findings = nullptr);
  ~MetricsServer();

  // The bound port (the chosen one when started with port 0).
  int port() const { return port_; }

 private:
  MetricsServer() = default;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::shared_ptr<prometheus::Collectable> metrics_;
  int port_ = 0;
};

}  // namespace rocewatch
