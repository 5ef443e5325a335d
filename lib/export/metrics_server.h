#pragma once
// The daemon's HTTP endpoint: /metrics (the exposition document the metrics callback gives,
// text/plain version 0.0.4, gzip-compressed for a client that accepts it), /healthz (200 while
// the health check says live), /api/v1/findings and /api/v1/state (the findings and state
// callbacks' documents, as application/json; each 404 when its callback was not given). Until the
// first poll completed (the health check says kNotReady, or a callback gives no document yet) each
// of them answers 503 "not ready". GET and HEAD; anything else is 405, any other path 404. Served
// on a TCP port and, when asked, on a local unix socket too, with the same answers. TLS is
// deliberately not offered: terminate it outside (kube-rbac-proxy), see docs/deploy.md.
//
// Built to be reachable by untrusted peers (docs/reliability.md, "The HTTP surface"): one thread
// does every socket operation, non-blocking, so a slow or idle peer holds a connection slot and
// never a thread; a request head must arrive within `header_deadline` of the accept; an answer
// must be taken within `write_deadline`; every answer closes its connection (no keep-alive);
// connections are bounded per client and in total, and when the total is reached the connection
// that has waited longest for its head is dropped for the new one. /healthz is answered on that
// thread; the documents are made on a second thread (their callbacks may wait), so a slow
// document never delays /healthz.

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "core/status.h"
#include "export/listen_address.h"
#include "export/served_text.h"

namespace rocewatch {

struct HttpLimits {
  // From accept to the end of the request head. Scrapers and probes send their head at once.
  std::chrono::milliseconds header_deadline{2000};
  // From the answer being ready to its last byte taken by the peer (a 110 kB exposition).
  std::chrono::milliseconds write_deadline{10000};
  size_t max_connections = 64;  // open at once, every client together
  size_t max_per_client = 8;    // open at once from one IPv4 address (unix socket: one uid)
};

class MetricsServer {
 public:
  enum class Health { kNotReady, kLive, kStalled };
  // The daemon's state. Called on the server's socket thread: must be thread-safe, cheap and
  // never wait.
  using HealthCheck = std::function<Health()>;
  // The exposition to serve, or null while there is none yet. Called from the server's document
  // thread: must be thread-safe; it may wait (the daemon's asks its event loop, bounded).
  using MetricsDocument = std::function<std::shared_ptr<const ServedText>()>;
  // The findings document to serve, or null while there is none yet. Same thread and contract.
  using FindingsDocument = std::function<std::shared_ptr<const std::string>()>;
  // One line that /healthz adds to its answer, live or stalled (the daemon's: which sources have
  // a read stuck in the kernel), or "" for none. Same thread and contract as HealthCheck.
  using HealthNote = std::function<std::string()>;

  struct Endpoints {
    MetricsDocument metrics;
    HealthCheck health;
    FindingsDocument findings;         // may be null: /api/v1/findings is then 404
    HealthNote health_note = nullptr;  // may be null: no note
    FindingsDocument state = nullptr;  // /api/v1/state; may be null: then 404
  };

  // Binds `address` and starts serving. Errors: Unavailable with the reason, in words (port in
  // use, bad address, permission). When `unix_socket` is not empty it is served too
  // (export/listening_socket.h); a failure there does not fail the start: unix_socket_status()
  // says why, and the TCP port is served alone.
  static StatusOr<std::unique_ptr<MetricsServer>> Start(const ListenAddress& address,
                                                        Endpoints endpoints,
                                                        const std::string& unix_socket = "",
                                                        HttpLimits limits = {});
  // Stops both threads; connections still open are closed; the unix socket's path is removed.
  ~MetricsServer();

  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // The bound port (the chosen one when started with port 0).
  int port() const;
  // Ok while the unix socket is served or none was asked for; why it is not, otherwise.
  const Status& unix_socket_status() const;

 private:
  class Impl;
  explicit MetricsServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rocewatch
