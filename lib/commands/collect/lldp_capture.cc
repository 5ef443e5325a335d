#include "collect/lldp_capture.h"

#include <memory>

#include "core/event_loop.h"

namespace rocewatch {

LldpCapture CaptureLldpFrames(const LldpSocketOpener& open, const std::set<std::string>& netdevs,
                              const Clock& clock, Duration wait) {
  LldpCapture capture;
  if (!open) return capture;
  std::map<std::string, std::unique_ptr<LldpSocket>> sockets;
  for (const std::string& netdev : netdevs) {
    StatusOr<std::unique_ptr<LldpSocket>> socket = open(netdev);
    if (socket.ok())
      sockets[netdev] = std::move(socket).value();
    else
      capture.failures.push_back(netdev + " LLDP: " + socket.status().message());
  }
  // Reads what is queued on one socket; the last frame wins. A failed read closes nothing here:
  // the rail just has no frame.
  auto drain = [&capture](const std::string& netdev, LldpSocket& socket) {
    for (int pass = 0; pass < 16; ++pass) {
      StatusOr<LldpReceived> received = socket.Read(64);
      if (!received.ok()) return;
      if (!received->frames.empty()) capture.last_frame[netdev] = received->frames.back();
      if (!received->more_queued) return;
    }
  };
  EventLoop loop(clock);
  size_t waiting = 0;
  for (auto& [netdev, socket] : sockets) {
    if (socket->fd() < 0) {
      drain(netdev, *socket);
      continue;
    }
    ++waiting;
    loop.WatchFd(socket->fd(), [&, name = netdev, s = socket.get()](short) {
      drain(name, *s);
      size_t have = 0;
      for (const auto& [n, sock] : sockets) have += sock->fd() >= 0 && capture.last_frame.count(n);
      if (have == waiting) loop.Stop();
    });
  }
  if (waiting == 0 || wait <= Duration::zero()) return capture;
  loop.ScheduleAfter(wait, [&loop] { loop.Stop(); });
  loop.Run();
  for (auto& [netdev, socket] : sockets)
    if (socket->fd() >= 0) loop.UnwatchFd(socket->fd());
  return capture;
}

}  // namespace rocewatch
