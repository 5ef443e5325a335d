#pragma once
// An LldpSocket that replays a recording (lldp/lldp_pcap.h) instead of the wire: for `run` and
// `diagnose --host-root` over a bundle, whose <host-root>/rocewatch/lldp/<netdev>.pcap holds the
// rail's last frame. It has no descriptor (the LLDP component reads it on every snapshot) and
// returns the recording's last LLDP frame at once and again every `replay_every`, as a switch
// repeats its frame, so the neighbor neither expires nor counts a frame per poll.

#include <memory>
#include <string>
#include <vector>

#include "core/clock.h"
#include "lldp/lldp_socket.h"
#include "os/file_system.h"

namespace rocewatch {

// <host_root>/rocewatch/lldp
std::string LldpRecordingsDir(const std::string& host_root);
// <host_root>/rocewatch/lldp/<netdev>.pcap
std::string LldpRecordingPath(const std::string& host_root, const std::string& netdev);

// The last LLDP frame of the recording at `path`, read through `fs`. NotFound when there is none;
// Corrupt "<path>: pcap: ..." for a file that is not a pcap of LLDP frames or holds none; other
// read errors as ReadFile's.
StatusOr<std::vector<uint8_t>> ReadLldpRecording(const FileSystem& fs, const std::string& path);

class RecordedLldpSocket final : public LldpSocket {
 public:
  // The replay of the recording at `path`, read through `fs` now. NotFound when there is none;
  // Corrupt for a file that is not a pcap of LLDP frames (or holds no LLDP frame).
  // REQUIRES: clock outlives the socket.
  static StatusOr<std::unique_ptr<LldpSocket>> Open(
      const FileSystem& fs, const std::string& path, const Clock& clock,
      Duration replay_every = std::chrono::seconds(30));

  int fd() const override { return -1; }
  StatusOr<LldpReceived> Read(size_t max_frames) override;

 private:
  RecordedLldpSocket(std::vector<uint8_t> frame, const Clock& clock, Duration replay_every)
      : frame_(std::move(frame)), clock_(clock), replay_every_(replay_every) {}
  const std::vector<uint8_t> frame_;
  const Clock& clock_;
  const Duration replay_every_;
  bool sent_ = false;
  MonoTime last_sent_{};
};

// Opens the recording of a netdev where <host_root>/rocewatch/lldp/<netdev>.pcap exists (a broken
// one is an error, not a fall-back), the live socket through `live` otherwise. On the live host
// (root "/") with a live opener, that opener itself: no recording is looked for.
// REQUIRES: files and clock outlive the opener.
LldpSocketOpener RecordingsFirst(LldpSocketOpener live, const FileSystem& files, const Clock& clock,
                                 std::string host_root);

}  // namespace rocewatch
