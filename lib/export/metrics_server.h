#pragma once
// The HTTP endpoint, on civetweb: /metrics (the exposition document the metrics callback gives,
// text/plain version 0.0.4, gzip-compressed for a client that accepts it; empty while it gives
// none), /healthz (200 while the health check passes, 503 otherwise) and /api/v1/findings (the
// document the findings callback gives, as application/json; 503 while it gives none, 404 when no
// callback was given). GET and HEAD; anything else is 405, any other path 404. TLS is
// deliberately not offered: terminate it outside (kube-rbac-proxy), see docs/deploy.md.

#include <functional>
#include <memory>
#include <string>

#include "core/status.h"
#include "export/listen_address.h"
#include "export/served_text.h"

struct mg_connection;
struct mg_context;

namespace rocewatch {

class MetricsServer {
 public:
  // Returns true while the daemon is healthy. Called from the server's threads: must be
  // thread-safe and cheap.
  using HealthCheck = std::function<bool()>;
  // The exposition to serve, or null while there is none yet. Called from the server's threads:
  // must be thread-safe; it may wait (the daemon's asks its event loop, bounded).
  using MetricsDocument = std::function<std::shared_ptr<const ServedText>()>;
  // The findings document to serve, or null while there is none yet. Called from the server's
  // threads: must be thread-safe; it may wait (the daemon's asks its event loop, bounded).
  using FindingsDocument = std::function<std::shared_ptr<const std::string>()>;

  // Binds and starts serving. Errors: Unavailable with the reason, in words (port in use, bad
  // address, permission).
  static StatusOr<std::unique_ptr<MetricsServer>> Start(const ListenAddress& address,
                                                        MetricsDocument metrics, HealthCheck health,
                                                        FindingsDocument findings = nullptr);
  ~MetricsServer();

  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // The bound port (the chosen one when started with port 0).
  int port() const { return port_; }

 private:
  MetricsServer(MetricsDocument metrics, HealthCheck health, FindingsDocument findings)
      : metrics_(std::move(metrics)), health_(std::move(health)), findings_(std::move(findings)) {}
  // A server thread: answers one request (civetweb's begin_request).
  static int Answer(mg_connection* conn);

  const MetricsDocument metrics_;
  const HealthCheck health_;
  const FindingsDocument findings_;
  mg_context* context_ = nullptr;  // serving from Start() to the destructor
  int port_ = 0;
};

}  // namespace rocewatch
