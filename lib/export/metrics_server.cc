#include "export/metrics_server.h"

#include <arpa/inet.h>
#include <civetweb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

namespace rocewatch {
namespace {

constexpr char kExpositionType[] = "text/plain; version=0.0.4; charset=utf-8";

// Writes the response; `encoding` is a Content-Encoding ("" for none); HEAD gets the head only.
int Reply(mg_connection* conn, bool head_only, int status, const char* reason,
          const char* content_type, const std::string& body, const char* encoding = "") {
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n%s%s%sContent-Length: %zu\r\n"
            "Connection: close\r\n\r\n",
            status, reason, content_type, *encoding ? "Content-Encoding: " : "", encoding,
            *encoding ? "\r\n" : "", body.size());
  if (!head_only) mg_write(conn, body.data(), body.size());
  return status;
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

int MetricsServer::Answer(mg_connection* conn) {
  const mg_request_info* info = mg_get_request_info(conn);
  const auto* server = static_cast<const MetricsServer*>(mg_get_user_data(mg_get_context(conn)));
  if (info == nullptr || info->local_uri == nullptr || server == nullptr) return 0;
  const bool head_only =
      info->request_method != nullptr && std::strcmp(info->request_method, "HEAD") == 0;
  if (!head_only &&
      (info->request_method == nullptr || std::strcmp(info->request_method, "GET") != 0))
    return Reply(conn, false, 405, "Method Not Allowed", "text/plain", "GET or HEAD only\n");
  const std::string_view path = info->local_uri;
  if (path == "/metrics") {
    std::shared_ptr<const ServedText> exposition = server->metrics_();
    if (!exposition) return Reply(conn, head_only, 200, "OK", kExpositionType, "");
    const char* accept = mg_get_header(conn, "Accept-Encoding");
    const std::string* gzipped =
        accept != nullptr && AcceptsGzip(accept) ? exposition->gzipped() : nullptr;
    return gzipped != nullptr
               ? Reply(conn, head_only, 200, "OK", kExpositionType, *gzipped, "gzip")
               : Reply(conn, head_only, 200, "OK", kExpositionType, exposition->text());
  }
  if (path == "/healthz") {
    const bool healthy = server->health_ && server->health_();
    return healthy ? Reply(conn, head_only, 200, "OK", "text/plain", "ok\n")
                   : Reply(conn, head_only, 503, "Service Unavailable", "text/plain", "stalled\n");
  }
  if (path == "/api/v1/findings") {
    if (!server->findings_)
      return Reply(conn, head_only, 404, "Not Found", "text/plain", "not served\n");
    std::shared_ptr<const std::string> document = server->findings_();
    if (!document)
      return Reply(conn, head_only, 503, "Service Unavailable", "text/plain",
                   "no poll completed yet\n");
    return Reply(conn, head_only, 200, "OK", "application/json", *document);
  }
  return Reply(conn, head_only, 404, "Not Found", "text/plain",
               "not found: /metrics, /healthz and /api/v1/findings are served\n");
}

StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(const ListenAddress& address,
                                                              MetricsDocument metrics,
                                                              HealthCheck health,
                                                              FindingsDocument findings) {
  std::unique_ptr<MetricsServer> server(
      new MetricsServer(std::move(metrics), std::move(health), std::move(findings)));
  mg_callbacks callbacks{};
  callbacks.begin_request = &MetricsServer::Answer;
  callbacks.log_message = [](const mg_connection*, const char*) { return 1; };  // not to stderr
  const std::string ports = address.ToCivetweb();
  const char* options[] = {"listening_ports", ports.c_str(), "num_threads", "2", nullptr};
  server->context_ = mg_start(&callbacks, server.get(), options);
  if (server->context_ == nullptr)
    return Status::Unavailable("cannot listen on " + ports + ": " + WhyCannotListen(address));
  mg_server_port bound[4] = {};
  const int count = mg_get_server_ports(server->context_, 4, bound);
  if (count <= 0) return Status::Unavailable("no listening port on " + ports);
  server->port_ = bound[0].port;
  return server;
}

MetricsServer::~MetricsServer() {
  if (context_ != nullptr) mg_stop(context_);  // joins the server threads
}

}  // namespace rocewatch
