#pragma once
// The HTTP endpoint: /metrics (prometheus-cpp Exposer over a collectable: the daemon's
// OnDemandExposition), /healthz (200 while the health check passes, 503 otherwise) and
// /api/v1/findings (the document the findings callback gives, as application/json; 503 while it
// gives none, 404 when no callback was given). TLS is deliberately not offered: terminate it
// outside (kube-rbac-proxy), see docs/deploy.md.

#include <prometheus/collectable.h>

#include <functional>
#include <memory>
#include <string>

#include "core/status.h"
#include "export/listen_address.h"

namespace prometheus {
class Exposer;
}

namespace rocewatch {

class MetricsServer {
 public:
  // Returns true while the daemon is healthy. Called from the server's threads: must be
  // thread-safe and cheap.
  using HealthCheck = std::function<bool()>;
  // The findings document to serve, or null while there is none yet. Called from the server's
  // threads: must be thread-safe; it may wait (the daemon's asks its event loop, bounded).
  using FindingsDocument = std::function<std::shared_ptr<const std::string>()>;

  // Binds and starts serving. Errors: Unavailable with the reason, in words (port in use, bad
  // address, permission).
  static StatusOr<std::unique_ptr<MetricsServer>> Start(
      const ListenAddress& address, std::shared_ptr<prometheus::Collectable> metrics,
      HealthCheck health, FindingsDocument findings = nullptr);
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
