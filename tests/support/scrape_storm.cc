#include "support/scrape_storm.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include "core/utf8.h"
#include "support/http_client.h"

namespace rocewatch {

ScrapeStorm::ScrapeStorm(int port, int scrapers, std::chrono::milliseconds pause,
                         std::chrono::milliseconds timeout, const std::string& netns) {
  for (int i = 0; i < scrapers; ++i) {
    threads_.emplace_back([this, port, pause, timeout, netns, i] {
      if (!netns.empty()) {  // setns affects only this thread
        int fd = open(("/run/netns/" + netns).c_str(), O_RDONLY | O_CLOEXEC);
        bool entered = fd >= 0 && setns(fd, CLONE_NEWNET) == 0;
        if (fd >= 0) close(fd);
        if (!entered) {
          ++failed_;
          std::lock_guard<std::mutex> lock(mu_);
          failures_.push_back("cannot enter netns " + netns);
          return;
        }
      }
      Scrape(port, pause, timeout, LoopbackClientAddress(i));
    });
  }
}

ScrapeStorm::~ScrapeStorm() { Stop(); }

void ScrapeStorm::Stop() {
  stop_ = true;
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
}

void ScrapeStorm::Scrape(int port, std::chrono::milliseconds pause,
                         std::chrono::milliseconds timeout, const std::string& source) {
  while (!stop_) {
    auto begin = std::chrono::steady_clock::now();
    StatusOr<HttpResponse> response = HttpGet("127.0.0.1", port, "/metrics", timeout, source);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::string failure;
    // The server bounds connections per client (docs/reliability.md, "The HTTP surface"): a
    // storm from one address is answered "too many connections" beyond the bound, by design.
    if (response.ok() && response->status == 503 &&
        response->body.rfind("too many connections", 0) == 0) {
      ++throttled_;
      if (pause.count() > 0) std::this_thread::sleep_for(pause);
      continue;
    }
    if (!response.ok()) {
      failure = response.status().ToString();
    } else if (response->status != 200) {
      failure = "HTTP " + std::to_string(response->status);
    } else if (response->body.find("\nrocewatch_build_info{") == std::string::npos) {
      failure = "no rocewatch_build_info in " + std::to_string(response->body.size()) + " bytes";
    } else if (!IsValidUtf8(response->body)) {
      failure = "exposition is not valid UTF-8";
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      max_seconds_ = std::max(max_seconds_, seconds);
      if (!failure.empty() && failures_.size() < 5) failures_.push_back(failure);
    }
    if (failure.empty()) {
      ++succeeded_;
    } else {
      ++failed_;
    }
    if (pause.count() > 0) std::this_thread::sleep_for(pause);
  }
}

std::vector<std::string> ScrapeStorm::failures() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failures_;
}

double ScrapeStorm::max_seconds() const {
  std::lock_guard<std::mutex> lock(mu_);
  return max_seconds_;
}

}  // namespace rocewatch
