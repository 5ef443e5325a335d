#pragma once
// N threads scraping GET /metrics on a loopback port in a loop until stopped, as busy Prometheus
// servers do. Every answer is checked: HTTP 200, the rocewatch_build_info series present, the
// body valid UTF-8 (Prometheus rejects the whole scrape otherwise); a "503 too many connections"
// (the server's per-client bound) is counted apart. Counts are thread-safe.

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rocewatch {

class ScrapeStorm {
 public:
  // Starts `scrapers` threads against 127.0.0.1:port, each from its own loopback address
  // (LoopbackClientAddress), each pausing `pause` between scrapes.
  // `netns`: scrape from inside that network namespace (empty: this one).
  ScrapeStorm(int port, int scrapers,
              std::chrono::milliseconds pause = std::chrono::milliseconds(0),
              std::chrono::milliseconds timeout = std::chrono::seconds(5),
              const std::string& netns = "");
  ~ScrapeStorm();  // Stop()
  ScrapeStorm(const ScrapeStorm&) = delete;
  ScrapeStorm& operator=(const ScrapeStorm&) = delete;

  // Joins the threads. Idempotent.
  void Stop();

  uint64_t succeeded() const { return succeeded_.load(); }
  uint64_t failed() const { return failed_.load(); }
  // Scrapes the server turned away with "503 too many connections" (its per-client bound):
  // neither a success nor a failure.
  uint64_t throttled() const { return throttled_.load(); }
  // The first few failures, for test messages.
  std::vector<std::string> failures() const;
  // Longest scrape seen, in seconds.
  double max_seconds() const;

 private:
  // From `source`: each scraper is a client of its own (a fleet of Prometheus servers).
  void Scrape(int port, std::chrono::milliseconds pause, std::chrono::milliseconds timeout,
              const std::string& source);

  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> succeeded_{0};
  std::atomic<uint64_t> failed_{0};
  std::atomic<uint64_t> throttled_{0};
  mutable std::mutex mu_;
  std::vector<std::string> failures_;
  double max_seconds_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace rocewatch
