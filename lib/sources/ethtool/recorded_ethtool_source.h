#pragma once
// The ethtool sources read from recordings (ethtool/ethtool_recording.h) instead of the kernel:
// `rocewatch collect` bundles, operator-made `ethtool -S` captures, and tests and demos that
// drive the detectors with changing values. Every read reads the file again, so a recording
// rewritten between polls is seen at the next poll.

#include <string>

#include "ethtool/ethtool_sources.h"
#include "os/file_system.h"

namespace rocewatch {

class RecordedEthtoolSource final : public DriverStatisticsSource, public EthtoolNetlinkSource {
 public:
  // REQUIRES: fs outlives this. `recordings_dir` is <host-root>/rocewatch/ethtool.
  RecordedEthtoolSource(const FileSystem& fs, std::string recordings_dir)
      : fs_(fs), dir_(std::move(recordings_dir)) {}

  // True if `netdev` has a recording directory (then every read of it comes from there).
  bool HasRecording(const std::string& netdev) const;

  StatusOr<std::optional<DriverStatistics>> ReadDriverStatistics(
      const std::string& netdev) override;
  // From the request's recording file (fec, link_state, pause, standard_statistics).
  StatusOr<std::optional<EthtoolAnswer>> Read(const std::string& netdev,
                                              EthtoolRequest request) override;
  StatusOr<std::optional<std::string>> ReadModulePage(const std::string& netdev,
                                                      const ModulePageAddress& address) override;

 private:
  // The recording's text; nullopt for a missing or "unsupported" recording; an IoError for an
  // "error: ..." recording or a failed read.
  StatusOr<std::optional<std::string>> ReadRecording(const std::string& netdev,
                                                     const std::string& file) const;

  const FileSystem& fs_;
  const std::string dir_;
};

}  // namespace rocewatch
