#include "export/metrics_server.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "export/http_answer.h"
#include "export/http_connection.h"
#include "export/http_request.h"
#include "export/listening_socket.h"

namespace rocewatch {
namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr char kExpositionType[] = "text/plain; version=0.0.4; charset=utf-8";
constexpr char kNotReady[] = "not ready: no poll completed yet\n";
// A document answer the document thread has not made by then is given up (its callback is
// bounded by the daemon; this only keeps a connection from waiting forever).
constexpr std::chrono::seconds kDocumentDeadline{30};

// A document request handed to the document thread.
struct DocumentJob {
  uint64_t connection;
  std::string path;
  bool head_only;
  bool gzip;
};

}  // namespace

class MetricsServer::Impl {
 public:
  Impl(Endpoints endpoints, HttpLimits limits, ListeningSocket tcp)
      : endpoints_(std::move(endpoints)), limits_(limits), tcp_(std::move(tcp)) {}
  ~Impl() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    jobs_ready_.notify_all();
    Wake();
    if (socket_thread_.joinable()) socket_thread_.join();
    if (document_thread_.joinable()) document_thread_.join();
    for (auto& [id, connection] : connections_) ::close(connection.fd);
    if (wake_fd_ >= 0) ::close(wake_fd_);
  }

  Status Begin(const std::string& unix_socket) {
    wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wake_fd_ < 0) return Status::FromErrno(errno, "eventfd");
    if (!unix_socket.empty()) {
      StatusOr<ListeningSocket> local = ListeningSocket::Unix(unix_socket);
      if (local.ok()) {
        unix_ = std::move(local).value();
      } else {
        unix_status_ = local.status();
      }
    }
    socket_thread_ = std::thread([this] { ServeSockets(); });
    document_thread_ = std::thread([this] { MakeDocuments(); });
    return Status::Ok();
  }

  int port() const { return tcp_.port(); }
  const Status& unix_status() const { return unix_status_; }

 private:
  void Wake() {
    const uint64_t one = 1;
    if (wake_fd_ >= 0) {
      [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof(one));
    }
  }

  // The socket thread: every accept, read, write and close.
  void ServeSockets() {
    std::vector<pollfd> polled;
    std::vector<uint64_t> polled_ids;
    while (true) {
      // While accepting is paused (out of descriptors), the listeners are not polled: poll()
      // would report them ready at once, again and again.
      const bool accepting = SteadyClock::now() >= accept_paused_until_;
      polled.assign({{wake_fd_, POLLIN, 0},
                     {accepting ? tcp_.fd() : -1, POLLIN, 0},
                     {accepting ? unix_.fd() : -1, POLLIN, 0}});
      polled_ids.assign(3, 0);
      SteadyClock::time_point next = SteadyClock::now() + std::chrono::seconds(60);
      if (!accepting) next = accept_paused_until_;
      for (auto& [id, connection] : connections_) {
        next = std::min(next, connection.deadline);
        if (connection.phase == HttpConnection::Phase::kWaitingDocument) continue;
        polled.push_back(
            {connection.fd,
             static_cast<short>(connection.phase == HttpConnection::Phase::kWriting ? POLLOUT
                                                                                    : POLLIN),
             0});
        polled_ids.push_back(id);
      }
      const auto wait = std::chrono::ceil<std::chrono::milliseconds>(next - SteadyClock::now());
      const int rc = ::poll(polled.data(), polled.size(),
                            static_cast<int>(std::max<int64_t>(0, wait.count())));
      if (rc < 0 && errno != EINTR) break;
      if (polled[0].revents != 0) {
        uint64_t count;
        [[maybe_unused]] ssize_t n = ::read(wake_fd_, &count, sizeof(count));
        if (TakeFinishedDocuments()) return;
      }
      for (size_t i = 1; i <= 2; ++i)
        if (polled[i].revents & POLLIN) AcceptAll(polled[i].fd);
      for (size_t i = 3; i < polled.size(); ++i)
        if (polled[i].revents != 0) Advance(polled_ids[i]);
      CloseExpired(SteadyClock::now());
    }
  }

  // Accepts every pending connection on `listener`, within the bounds.
  void AcceptAll(int listener) {
    while (true) {
      sockaddr_storage peer{};
      socklen_t length = sizeof(peer);
      const int fd = ::accept4(listener, reinterpret_cast<sockaddr*>(&peer), &length,
                               SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
          accept_paused_until_ = SteadyClock::now() + std::chrono::milliseconds(100);
        return;  // EAGAIN: none left
      }
      std::string client = ClientOf(fd, peer);
      if (per_client_[client] >= limits_.max_per_client ||
          (connections_.size() >= limits_.max_connections && !DropOldestReading())) {
        Refuse(fd, "too many connections\n");
        continue;
      }
      ++per_client_[client];
      HttpConnection& connection = connections_[next_id_++];
      connection.fd = fd;
      connection.client = std::move(client);
      connection.accepted = SteadyClock::now();
      connection.deadline = connection.accepted + limits_.header_deadline;
    }
  }

  // Makes room: closes the connection that has waited longest for its head. False when every
  // connection already sent its head (they are answered soon).
  bool DropOldestReading() {
    auto oldest = connections_.end();
    for (auto it = connections_.begin(); it != connections_.end(); ++it)
      if (it->second.phase == HttpConnection::Phase::kReadingHead &&
          (oldest == connections_.end() || it->second.accepted < oldest->second.accepted))
        oldest = it;
    if (oldest == connections_.end()) return false;
    Close(oldest);
    ++dropped_;
    return true;
  }

  void Refuse(int fd, const std::string& why) {
    const std::string answer = HttpTextAnswer(503, why);
    SendSome(fd, answer.data(), answer.size());
    ::close(fd);
  }

  void Close(std::map<uint64_t, HttpConnection>::iterator it) {
    ::close(it->second.fd);
    auto client = per_client_.find(it->second.client);
    if (client != per_client_.end() && --client->second == 0) per_client_.erase(client);
    connections_.erase(it);
  }

  void CloseExpired(SteadyClock::time_point now) {
    for (auto it = connections_.begin(); it != connections_.end();) {
      auto current = it++;
      if (current->second.deadline > now) continue;
      if (current->second.phase == HttpConnection::Phase::kReadingHead) {
        const std::string answer = HttpTextAnswer(408, "request head not received in time\n");
        SendSome(current->second.fd, answer.data(), answer.size());
      }
      Close(current);
    }
  }

  // Reads or writes what the connection is ready for.
  void Advance(uint64_t id) {
    auto it = connections_.find(id);
    if (it == connections_.end()) return;
    HttpConnection& connection = it->second;
    if (connection.phase == HttpConnection::Phase::kWriting) {
      const OutgoingAnswer& answer = connection.answer;
      const bool in_head = connection.sent < answer.head.size();
      const char* data = in_head ? answer.head.data() + connection.sent
                                 : answer.body.data() + (connection.sent - answer.head.size());
      const size_t left =
          in_head ? answer.head.size() - connection.sent : answer.size() - connection.sent;
      const size_t n = SendSome(connection.fd, data, left);
      connection.sent += n;
      if (n == 0 || connection.sent == answer.size()) Close(it);
      return;
    }
    char buffer[2048];
    const ssize_t n = ::recv(connection.fd, buffer, sizeof(buffer), MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
      Close(it);
      return;
    }
    connection.received.append(buffer, static_cast<size_t>(n));
    HttpRequestHead head;
    switch (ParseRequestHead(connection.received, &head)) {
      case HeadVerdict::kIncomplete:
        return;
      case HeadVerdict::kTooLarge:
        return StartWriting(connection, HttpTextAnswer(431, "request head too large\n"));
      case HeadVerdict::kMalformed:
        return StartWriting(connection, HttpTextAnswer(400, "malformed request\n"));
      case HeadVerdict::kComplete:
        return Route(id, connection, head);
    }
  }

  void StartWriting(HttpConnection& connection, std::string answer) {
    StartWriting(connection, OwnedAnswer(std::move(answer)));
  }

  void StartWriting(HttpConnection& connection, OutgoingAnswer answer) {
    connection.phase = HttpConnection::Phase::kWriting;
    connection.answer = std::move(answer);
    connection.received.clear();
    connection.deadline = SteadyClock::now() + limits_.write_deadline;
  }

  // Answers /healthz, refusals and "not ready" here; hands the documents to the document thread.
  void Route(uint64_t id, HttpConnection& connection, const HttpRequestHead& head) {
    const bool head_only = head.method == "HEAD";
    if (!head_only && head.method != "GET")
      return StartWriting(connection, HttpTextAnswer(405, "GET or HEAD only\n"));
    const bool api = head.path == "/api/v1/findings" || head.path == "/api/v1/state";
    const bool known = head.path == "/metrics" || head.path == "/healthz" ||
                       (head.path == "/api/v1/findings" && endpoints_.findings) ||
                       (head.path == "/api/v1/state" && endpoints_.state);
    if (!known) {
      const char* why = api ? "not served\n"
                            : "not found: /metrics, /healthz, /api/v1/findings and /api/v1/state "
                              "are served\n";
      return StartWriting(connection, HttpTextAnswer(404, why, head_only));
    }
    const Health health = endpoints_.health ? endpoints_.health() : Health::kStalled;
    if (health == Health::kNotReady)
      return StartWriting(connection, HttpTextAnswer(503, kNotReady, head_only));
    if (head.path == "/healthz") {
      std::string body = health == Health::kLive ? "ok\n" : "stalled\n";
      if (endpoints_.health_note) {
        const std::string note = endpoints_.health_note();
        if (!note.empty()) body += note + "\n";
      }
      return StartWriting(connection,
                          HttpTextAnswer(health == Health::kLive ? 200 : 503, body, head_only));
    }
    connection.phase = HttpConnection::Phase::kWaitingDocument;
    connection.deadline = SteadyClock::now() + kDocumentDeadline;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back({id, head.path, head_only, AcceptsGzip(head.accept_encoding)});
    }
    jobs_ready_.notify_one();
  }

  // Moves the documents the document thread made to their connections. True when stopping.
  bool TakeFinishedDocuments() {
    std::deque<std::pair<uint64_t, OutgoingAnswer>> finished;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return true;
      finished.swap(finished_);
    }
    for (auto& [id, answer] : finished) {
      auto it = connections_.find(id);
      if (it != connections_.end()) StartWriting(it->second, std::move(answer));
    }
    return false;
  }

  // The document thread: calls the document callbacks, one request at a time.
  void MakeDocuments() {
    while (true) {
      DocumentJob job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        jobs_ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (stopping_) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      OutgoingAnswer answer = Document(job);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        finished_.emplace_back(job.connection, std::move(answer));
      }
      Wake();
    }
  }

  // The head is made here; the body stays the document's own (OutgoingAnswer::owner).
  OutgoingAnswer Document(const DocumentJob& job) const {
    if (job.path == "/metrics") {
      std::shared_ptr<const ServedText> exposition =
          endpoints_.metrics ? endpoints_.metrics() : nullptr;
      if (!exposition) return OwnedAnswer(HttpTextAnswer(503, kNotReady, job.head_only));
      const std::string* gzipped = job.gzip ? exposition->gzipped() : nullptr;
      const std::string& body = gzipped != nullptr ? *gzipped : exposition->text();
      std::string head = HttpAnswer(200, kExpositionType, body, /*head_only=*/true,
                                    gzipped != nullptr ? "gzip" : "");
      return OutgoingAnswer{std::move(head), exposition,
                            job.head_only ? std::string_view() : std::string_view(body)};
    }
    std::shared_ptr<const std::string> document =
        job.path == "/api/v1/state" ? endpoints_.state() : endpoints_.findings();
    if (!document) return OwnedAnswer(HttpTextAnswer(503, kNotReady, job.head_only));
    std::string head = HttpAnswer(200, "application/json", *document, /*head_only=*/true);
    return OutgoingAnswer{std::move(head), document,
                          job.head_only ? std::string_view() : std::string_view(*document)};
  }

  const Endpoints endpoints_;
  const HttpLimits limits_;
  ListeningSocket tcp_;
  ListeningSocket unix_ = ListeningSocket::Closed();
  Status unix_status_ = Status::Ok();
  int wake_fd_ = -1;

  // Socket thread only.
  std::map<uint64_t, HttpConnection> connections_;
  std::map<std::string, size_t> per_client_;
  uint64_t next_id_ = 1;
  uint64_t dropped_ = 0;
  SteadyClock::time_point accept_paused_until_;

  std::mutex mutex_;
  std::condition_variable jobs_ready_;
  bool stopping_ = false;                                     // GUARDED_BY(mutex_)
  std::deque<DocumentJob> jobs_;                              // GUARDED_BY(mutex_)
  std::deque<std::pair<uint64_t, OutgoingAnswer>> finished_;  // GUARDED_BY(mutex_)

  std::thread socket_thread_;
  std::thread document_thread_;
};

MetricsServer::MetricsServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
MetricsServer::~MetricsServer() = default;

StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(const ListenAddress& address,
                                                              Endpoints endpoints,
                                                              const std::string& unix_socket,
                                                              HttpLimits limits) {
  StatusOr<ListeningSocket> tcp = ListeningSocket::Tcp(address);
  if (!tcp.ok()) return tcp.status();
  auto impl = std::make_unique<Impl>(std::move(endpoints), limits, std::move(tcp).value());
  if (Status begun = impl->Begin(unix_socket); !begun.ok()) return begun;
  return std::unique_ptr<MetricsServer>(new MetricsServer(std::move(impl)));
}

int MetricsServer::port() const { return impl_->port(); }
const Status& MetricsServer::unix_socket_status() const { return impl_->unix_status(); }

}  // namespace rocewatch
