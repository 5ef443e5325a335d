#pragma once
// A minimal blocking HTTP/1.0 GET for tests that scrape /metrics and /healthz on loopback.

#include <chrono>
#include <optional>
#include <string>

#include "core/status.h"

namespace rocewatch {

struct HttpResponse {
  int status = 0;
  std::string head;  // the status line and the headers, without the blank line
  std::string body;
};

// GET http://host:port/path with a total time bound, from `source` (a local IPv4 address, e.g.
// 127.0.0.7: another client for the server's per-client bound; empty: the kernel's choice).
// Errors: IoError (refused, timeout, garbage).
StatusOr<HttpResponse> HttpGet(const std::string& host, int port, const std::string& path,
                               std::chrono::milliseconds timeout = std::chrono::seconds(5),
                               const std::string& source = "");

// Sends `request` as it is (a whole HTTP/1.0 request) and reads the response until the server
// closes, with a total time bound. Errors as HttpGet.
StatusOr<HttpResponse> HttpExchange(const std::string& host, int port, const std::string& request,
                                    std::chrono::milliseconds timeout = std::chrono::seconds(5),
                                    const std::string& source = "");

// The loopback address of the i-th of many test clients: 127.0.1.x, never 127.0.0.1 (the test's
// own probes), one address per client.
std::string LoopbackClientAddress(int i);

// The value of the first sample whose line starts with `series` (name plus labels exactly as
// exposed, e.g. `rocewatch_port_active{device="mlx5_0",port="1"}`), or nullopt.
std::optional<double> FindSample(const std::string& exposition, const std::string& series);

}  // namespace rocewatch
