#pragma once
// The host's DCB answers as a bundle records them (docs/bundle.md): one JSON file per RoCE netdev,
// <host-root>/rocewatch/dcb/<netdev>.json, written by `collect` and read by `run --host-root` and
// `diagnose --host-root` in place of DCB netlink:
//   {"request": "DCB_CMD_IEEE_GET", "netdev": "ens1f0np0",
//    "outcome": "answered" | "no_dcb" | "failed",
//    "answer": "<hex of the attributes after struct dcbmsg>" | null,
//    "error": "<why the read failed>",            (failed only)
//    "pfc_enabled": [3]}                           (answered with PFC; for people, not read back)
// The answer is kept as the kernel's bytes, so what a later rocewatch decodes from it is decoded
// from the host's own answer. A recording is untrusted: bounded (kMaxDcbRecordingBytes), its hex
// checked, its answer parsed by ParseDcbIeeeAnswer.

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "netlink/dcb_pfc.h"
#include "os/file_system.h"

namespace rocewatch {

inline constexpr size_t kMaxDcbRecordingBytes = 2 * kMaxDcbAnswerBytes + 4096;

// <host_root>/rocewatch/dcb/<netdev>.json, and its path inside a bundle.
std::string DcbRecordingPath(const std::string& host_root, const std::string& netdev);
std::string DcbRecordingBundlePath(const std::string& netdev);

// The recording of one netdev's answer (or of the failure to get one).
std::string FormatDcbRecording(const std::string& netdev,
                               const StatusOr<std::optional<std::vector<uint8_t>>>& answer);

// The answer recorded in `text`: nullopt for "no_dcb"; Unavailable "recorded: <error>" for a
// recorded failure; Corrupt with what is wrong for anything malformed.
StatusOr<std::optional<std::vector<uint8_t>>> ParseDcbRecording(const std::string& text);

// Answers from the recording under `host_root` where one exists for the netdev, from `live`
// otherwise (a missing recording is not an error; a broken one is, not a fall-back). On the live
// host (root "/") with a live reader, that reader itself: no recording is looked for. Without one
// (diagnose's recordings-only reader) the recording is always looked for.
// REQUIRES: files outlives the reader.
DcbAnswerReader DcbRecordingsFirst(DcbAnswerReader live, const FileSystem& files,
                                   std::string host_root);

}  // namespace rocewatch
