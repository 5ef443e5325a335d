#pragma once
// Recordings of a netdev's ethtool answers, as files under
// <host-root>/rocewatch/ethtool/<netdev>/ (docs/bundle.md):
//   statistics            `ethtool -S <netdev>` text (driver statistics)
//   fec                   FEC_GET with statistics: corrected_blocks, uncorrectable_blocks,
//                         corrected_bits, their per-lane values <name>_lane<N>, active_mode_bit
//   link_state            LINKSTATE_GET: link (yes|no), ext_state, ext_substate, link_down_count
//   pause                 PAUSE_GET with statistics: autoneg, rx, tx (on|off), tx_pause_frames,
//                         rx_pause_frames
//   standard_statistics   STATS_GET: "<group>.<name>: value" (eth-phy.SymbolErrorDuringCarrier)
//   module/lower          module EEPROM bytes 0-127 (binary, 128 bytes)
//   module/page<HH>       upper half of page HH (hex, e.g. page03, page11), bank 0
//   module/bank<B>-page<HH>  the same for bank B > 0
//   module/a2h-lower      an SFP's diagnostics (I2C address 0x51, SFF-8472 A2h) bytes 0-127
// All but the module pages are "name: value" lines. A file whose content is "unsupported" records
// an EOPNOTSUPP answer; a missing file reads the same. "error: <text>" records a failed read.

#include <optional>
#include <string>

#include "core/status.h"
#include "ethtool/ethtool_readings.h"
#include "ethtool/ethtool_sources.h"

namespace rocewatch {

inline constexpr const char* kUnsupportedRecording = "unsupported\n";

// <host_root>/rocewatch/ethtool
std::string EthtoolRecordingsDir(const std::string& host_root);
// The file name of a module page under module/ ("lower", "page03", "bank1-page11",
// "a2h-lower").
std::string ModulePageFileName(const ModulePageAddress& address);

StatusOr<FecReading> ParseFecRecording(const std::string& text);
StatusOr<LinkStateReading> ParseLinkStateRecording(const std::string& text);
StatusOr<PauseReading> ParsePauseRecording(const std::string& text);
StatusOr<StandardStatistics> ParseStandardStatisticsRecording(const std::string& text);

std::string FormatFecRecording(const FecReading& reading);
std::string FormatLinkStateRecording(const LinkStateReading& reading);
std::string FormatPauseRecording(const PauseReading& reading);
std::string FormatStandardStatisticsRecording(const StandardStatistics& reading);

}  // namespace rocewatch
