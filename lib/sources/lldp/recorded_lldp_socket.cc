#include "lldp/recorded_lldp_socket.h"

#include "lldp/lldp_pcap.h"
#include "os/host_paths.h"

namespace rocewatch {

std::string LldpRecordingsDir(const std::string& host_root) {
  return JoinPath(host_root, "rocewatch/lldp");
}

std::string LldpRecordingPath(const std::string& host_root, const std::string& netdev) {
  return JoinPath(LldpRecordingsDir(host_root), netdev + ".pcap");
}

StatusOr<std::vector<uint8_t>> ReadLldpRecording(const FileSystem& fs, const std::string& path) {
  StatusOr<std::string> bytes = fs.ReadFile(path, kMaxLldpPcapBytes + 1);
  if (!bytes.ok()) return bytes.status();
  StatusOr<std::vector<std::vector<uint8_t>>> frames = ReadLldpPcap(*bytes);
  if (!frames.ok()) return Status::Corrupt(path + ": " + frames.status().message());
  if (frames->empty()) return Status::Corrupt(path + ": pcap: no LLDP frame in it");
  return std::move(frames->back());
}

StatusOr<std::unique_ptr<LldpSocket>> RecordedLldpSocket::Open(const FileSystem& fs,
                                                               const std::string& path,
                                                               const Clock& clock,
                                                               Duration replay_every) {
  StatusOr<std::vector<uint8_t>> frame = ReadLldpRecording(fs, path);
  if (!frame.ok()) return frame.status();
  return std::unique_ptr<LldpSocket>(
      new RecordedLldpSocket(std::move(frame).value(), clock, replay_every));
}

StatusOr<LldpReceived> RecordedLldpSocket::Read(size_t max_frames) {
  LldpReceived received;
  const MonoTime now = clock_.Now();
  if (max_frames > 0 && (!sent_ || now - last_sent_ >= replay_every_)) {
    received.frames.push_back(frame_);
    sent_ = true;
    last_sent_ = now;
  }
  return received;
}

LldpSocketOpener RecordingsFirst(LldpSocketOpener live, const FileSystem& files, const Clock& clock,
                                 std::string host_root) {
  if (live && HostPaths::IsLiveRoot(host_root)) return live;  // no bundle at "/": skip the open
  return [live = std::move(live), &files, &clock, host_root = std::move(host_root)](
             const std::string& netdev) -> StatusOr<std::unique_ptr<LldpSocket>> {
    StatusOr<std::unique_ptr<LldpSocket>> recorded =
        RecordedLldpSocket::Open(files, LldpRecordingPath(host_root, netdev), clock);
    if (recorded.ok() || recorded.status().code() != StatusCode::kNotFound) return recorded;
    if (!live) return Status::Unavailable("no LLDP socket and no recording of " + netdev);
    return live(netdev);
  };
}

}  // namespace rocewatch
