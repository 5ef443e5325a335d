#include "export/metrics_server.h"

#include <CivetServer.h>
#include <civetweb.h>
#include <prometheus/exposer.h>

#include <cstring>
#include <exception>
#include <map>
#include <mutex>

namespace rocewatch {
namespace {

// civetweb's begin_request is a plain function pointer: health checks are found by server port.
std::mutex g_health_mutex;
std::map<int, MetricsServer::HealthCheck>& HealthChecks() {
  static auto* checks = new std::map<int, MetricsServer::HealthCheck>();
  return *checks;
}

int BeginRequest(mg_connection* conn) {
  const mg_request_info* info = mg_get_request_info(conn);
  if (info == nullptr || info->local_uri == nullptr ||
      std::strcmp(info->local_uri, "/healthz") != 0)
    return 0;  // not ours: let the Exposer handle it
  MetricsServer::HealthCheck check;
  {
    std::lock_guard<std::mutex> lock(g_health_mutex);
    auto it = HealthChecks().find(info->server_port);
    if (it != HealthChecks().end()) check = it->second;
  }
  bool healthy = check && check();
  const char* body = healthy ? "ok\n" : "stalled\n";
  mg_printf(conn,
            "HTTP/1.1 %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
            "Connection: close\r\n\r\n%s",
            healthy ? "200 OK" : "503 Service Unavailable", std::strlen(body), body);
  return healthy ? 200 : 503;
}

}  // namespace

StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(
    const ListenAddress& address, std::shared_ptr<SnapshotCollectable> metrics,
    HealthCheck health) {
  static CivetCallbacks callbacks = [] {
    CivetCallbacks c{};
    c.begin_request = BeginRequest;
    return c;
  }();
  std::unique_ptr<MetricsServer> server(new MetricsServer());
  try {
    server->exposer_ = std::make_unique<prometheus::Exposer>(
        std::vector<std::string>{"listening_ports", address.ToCivetweb(), "num_threads", "2"},
        &callbacks);
  } catch (const std::exception& e) {
    return Status::Unavailable("cannot listen on " + address.ToCivetweb() + ": " + e.what());
  }
  std::vector<int> ports = server->exposer_->GetListeningPorts();
  if (ports.empty()) return Status::Unavailable("no listening port on " + address.ToCivetweb());
  server->port_ = ports.front();
  server->metrics_ = std::move(metrics);
  server->exposer_->RegisterCollectable(server->metrics_);
  {
    std::lock_guard<std::mutex> lock(g_health_mutex);
    HealthChecks()[server->port_] = std::move(health);
  }
  return server;
}

MetricsServer::~MetricsServer() {
  exposer_.reset();  // stops the server threads before the health check goes
  std::lock_guard<std::mutex> lock(g_health_mutex);
  HealthChecks().erase(port_);
}

}  // namespace rocewatch
