#include "export/metrics_server.h"

#include <CivetServer.h>
#include <arpa/inet.h>
#include <civetweb.h>
#include <netinet/in.h>
#include <prometheus/exposer.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>

namespace rocewatch {
namespace {

// civetweb's begin_request is a plain function pointer: handlers are found by server port.
struct PortHandlers {
  MetricsServer::HealthCheck health;
  MetricsServer::FindingsDocument findings;
};
std::mutex g_handlers_mutex;
std::map<int, PortHandlers>& Handlers() {
  static auto* handlers = new std::map<int, PortHandlers>();
  return *handlers;
}

int Reply(mg_connection* conn, int status, const char* reason, const char* content_type,
          const std::string& body) {
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
            "Connection: close\r\n\r\n",
            status, reason, content_type, body.size());
  mg_write(conn, body.data(), body.size());
  return status;
}

int BeginRequest(mg_connection* conn) {
  const mg_request_info* info = mg_get_request_info(conn);
  if (info == nullptr || info->local_uri == nullptr) return 0;
  const bool health = std::strcmp(info->local_uri, "/healthz") == 0;
  const bool findings = std::strcmp(info->local_uri, "/api/v1/findings") == 0;
  if (!health && !findings) return 0;  // not ours: let the Exposer handle it
  PortHandlers handlers;
  {
    std::lock_guard<std::mutex> lock(g_handlers_mutex);
    auto it = Handlers().find(info->server_port);
    if (it != Handlers().end()) handlers = it->second;
  }
  if (health) {
    bool healthy = handlers.health && handlers.health();
    return healthy ? Reply(conn, 200, "OK", "text/plain", "ok\n")
                   : Reply(conn, 503, "Service Unavailable", "text/plain", "stalled\n");
  }
  if (!handlers.findings) return Reply(conn, 404, "Not Found", "text/plain", "not served\n");
  std::shared_ptr<const std::string> document = handlers.findings();
  if (!document)
    return Reply(conn, 503, "Service Unavailable", "text/plain", "no poll completed yet\n");
  return Reply(conn, 200, "OK", "application/json", *document);
}

// Why civetweb could not listen, in words: binds a probe socket the way it does and names the
// errno (civetweb itself only says "possible problem binding to port").
std::string WhyCannotListen(const ListenAddress& address) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::strerror(errno);
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(address.port);
  sa.sin_addr.s_addr = htonl(INADDR_ANY);
  std::string why;
  if (!address.host.empty() &&
      ::inet_pton(AF_INET, address.host == "localhost" ? "127.0.0.1" : address.host.c_str(),
                  &sa.sin_addr) != 1) {
    why = "'" + address.host + "' is not an IPv4 address";
  } else if (::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) != 0) {
    int saved = errno;
    if (saved == EADDRINUSE)
      why = "port " + std::to_string(address.port) +
            " is already in use (another rocewatch, or another program, listens on it): stop "
            "it or choose another port with --listen";
    else if (saved == EACCES)
      why = "permission denied for port " + std::to_string(address.port) +
            " (ports below 1024 need CAP_NET_BIND_SERVICE)";
    else if (saved == EADDRNOTAVAIL)
      why = "address " + address.host + " is not on this host";
    else
      why = std::strerror(saved);
  } else {
    why = "civetweb failed to start";
  }
  ::close(fd);
  return why;
}

}  // namespace

StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(
    const ListenAddress& address, std::shared_ptr<prometheus::Collectable> metrics,
    HealthCheck health, FindingsDocument findings) {
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
    (void)e;  // civetweb's text names no cause
    return Status::Unavailable("cannot listen on " + address.ToCivetweb() + ": " +
                               WhyCannotListen(address));
  }
  std::vector<int> ports = server->exposer_->GetListeningPorts();
  if (ports.empty()) return Status::Unavailable("no listening port on " + address.ToCivetweb());
  server->port_ = ports.front();
  server->metrics_ = std::move(metrics);
  server->exposer_->RegisterCollectable(server->metrics_);
  {
    std::lock_guard<std::mutex> lock(g_handlers_mutex);
    Handlers()[server->port_] = {std::move(health), std::move(findings)};
  }
  return server;
}

MetricsServer::~MetricsServer() {
  exposer_.reset();  // stops the server threads before the handlers go
  std::lock_guard<std::mutex> lock(g_handlers_mutex);
  Handlers().erase(port_);
}

}  // namespace rocewatch
