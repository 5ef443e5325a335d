#include "ethtool/ethtool_recording.h"

#include <cstdio>

#include "ethtool/ethtool_text.h"
#include "os/file_system.h"

namespace rocewatch {
namespace {

Status BadValue(const std::string& name, const std::string& value) {
  return Status::InvalidArgument("'" + name + "': bad value '" + value + "'");
}

std::optional<bool> ParseSwitch(const std::string& value) {
  if (value == "yes" || value == "on" || value == "1") return true;
  if (value == "no" || value == "off" || value == "0") return false;
  return std::nullopt;
}

// "corrected_blocks_lane3" -> lane 3 of corrected_blocks.
bool SetLane(std::vector<uint64_t>& lanes, const std::string& suffix, uint64_t value) {
  std::optional<uint64_t> lane = ParseUnsigned(suffix);
  if (!lane || *lane >= 16) return false;
  if (lanes.size() <= *lane) lanes.resize(*lane + 1, 0);
  lanes[*lane] = value;
  return true;
}

void AppendLanes(std::string& text, const std::string& name, const std::vector<uint64_t>& lanes) {
  for (size_t i = 0; i < lanes.size(); ++i)
    text += name + "_lane" + std::to_string(i) + ": " + std::to_string(lanes[i]) + "\n";
}

void AppendNumber(std::string& text, const std::string& name, const auto& value) {
  if (value) text += name + ": " + std::to_string(*value) + "\n";
}

void AppendSwitch(std::string& text, const std::string& name, const std::optional<bool>& value,
                  const char* on, const char* off) {
  if (value) text += name + ": " + (*value ? on : off) + "\n";
}

}  // namespace

std::string EthtoolRecordingsDir(const std::string& host_root) {
  return JoinPath(host_root, "rocewatch/ethtool");
}

std::string ModulePageFileName(const ModulePageAddress& address) {
  const std::string prefix =
      address.i2c_address == ModulePageAddress::kModuleI2cAddress
          ? ""
          : (address.i2c_address == ModulePageAddress::kSfpDiagnosticsI2cAddress
                 ? "a2h-"
                 : "i2c" + std::to_string(address.i2c_address) + "-");
  if (address.offset < 128) return prefix + "lower";
  char name[32];
  if (address.bank == 0) {
    std::snprintf(name, sizeof(name), "page%02x", address.page);
  } else {
    std::snprintf(name, sizeof(name), "bank%u-page%02x", address.bank, address.page);
  }
  return prefix + name;
}

StatusOr<FecReading> ParseFecRecording(const std::string& text) {
  StatusOr<TextFields> fields = ParseTextFields(text);
  if (!fields.ok()) return fields.status();
  FecReading reading;
  struct Series {
    const char* name;
    std::optional<uint64_t>& total;
    std::vector<uint64_t>& lanes;
  };
  Series series[] = {
      {"corrected_blocks", reading.corrected_blocks, reading.corrected_blocks_per_lane},
      {"uncorrectable_blocks", reading.uncorrectable_blocks, reading.uncorrectable_blocks_per_lane},
      {"corrected_bits", reading.corrected_bits, reading.corrected_bits_per_lane},
  };
  for (const auto& [name, value] : *fields) {
    std::optional<uint64_t> number = ParseUnsigned(value);
    if (!number) return BadValue(name, value);
    if (name == "active_mode_bit") {
      reading.active_mode_bit = static_cast<uint32_t>(*number);
      continue;
    }
    bool known = false;
    for (Series& s : series) {
      const std::string base = s.name;
      if (name == base) {
        s.total = *number;
        known = true;
      } else if (name.rfind(base + "_lane", 0) == 0) {
        if (!SetLane(s.lanes, name.substr(base.size() + 5), *number)) return BadValue(name, value);
        known = true;
      }
      if (known) break;
    }
    (void)known;  // unknown names are passed over: a newer recorder may write more
  }
  return reading;
}

StatusOr<LinkStateReading> ParseLinkStateRecording(const std::string& text) {
  StatusOr<TextFields> fields = ParseTextFields(text);
  if (!fields.ok()) return fields.status();
  LinkStateReading reading;
  for (const auto& [name, value] : *fields) {
    if (name == "link") {
      reading.link_up = ParseSwitch(value);
      if (!reading.link_up) return BadValue(name, value);
      continue;
    }
    std::optional<uint64_t> number = ParseUnsigned(value);
    if (name == "ext_state" || name == "ext_substate") {
      if (!number || *number > 255) return BadValue(name, value);
      (name == "ext_state" ? reading.ext_state : reading.ext_substate) =
          static_cast<uint8_t>(*number);
    } else if (name == "link_down_count") {
      if (!number || *number > UINT32_MAX) return BadValue(name, value);
      reading.link_down_count = static_cast<uint32_t>(*number);
    }
  }
  return reading;
}

StatusOr<PauseReading> ParsePauseRecording(const std::string& text) {
  StatusOr<TextFields> fields = ParseTextFields(text);
  if (!fields.ok()) return fields.status();
  PauseReading reading;
  for (const auto& [name, value] : *fields) {
    std::optional<bool>* flag = name == "autoneg" ? &reading.autoneg
                                : name == "rx"    ? &reading.rx_enabled
                                : name == "tx"    ? &reading.tx_enabled
                                                  : nullptr;
    if (flag) {
      *flag = ParseSwitch(value);
      if (!*flag) return BadValue(name, value);
      continue;
    }
    std::optional<uint64_t>* counter = name == "tx_pause_frames"   ? &reading.tx_pause_frames
                                       : name == "rx_pause_frames" ? &reading.rx_pause_frames
                                                                   : nullptr;
    if (!counter) continue;
    *counter = ParseUnsigned(value);
    if (!*counter) return BadValue(name, value);
  }
  return reading;
}

StatusOr<StandardStatistics> ParseStandardStatisticsRecording(const std::string& text) {
  StatusOr<TextFields> fields = ParseTextFields(text);
  if (!fields.ok()) return fields.status();
  StandardStatistics reading;
  for (const auto& [name, value] : *fields) {
    std::optional<uint64_t> number = ParseUnsigned(value);
    if (!number) return BadValue(name, value);
    reading.counters[name] = *number;
  }
  return reading;
}

std::string FormatFecRecording(const FecReading& r) {
  std::string text = "# ethtool FEC statistics (FEC_GET)\n";
  AppendNumber(text, "active_mode_bit", r.active_mode_bit);
  AppendNumber(text, "corrected_blocks", r.corrected_blocks);
  AppendLanes(text, "corrected_blocks", r.corrected_blocks_per_lane);
  AppendNumber(text, "uncorrectable_blocks", r.uncorrectable_blocks);
  AppendLanes(text, "uncorrectable_blocks", r.uncorrectable_blocks_per_lane);
  AppendNumber(text, "corrected_bits", r.corrected_bits);
  AppendLanes(text, "corrected_bits", r.corrected_bits_per_lane);
  return text;
}

std::string FormatLinkStateRecording(const LinkStateReading& r) {
  std::string text = "# ethtool link state (LINKSTATE_GET)\n";
  AppendSwitch(text, "link", r.link_up, "yes", "no");
  AppendNumber(text, "ext_state", r.ext_state);
  AppendNumber(text, "ext_substate", r.ext_substate);
  AppendNumber(text, "link_down_count", r.link_down_count);
  return text;
}

std::string FormatPauseRecording(const PauseReading& r) {
  std::string text = "# ethtool pause (PAUSE_GET)\n";
  AppendSwitch(text, "autoneg", r.autoneg, "on", "off");
  AppendSwitch(text, "rx", r.rx_enabled, "on", "off");
  AppendSwitch(text, "tx", r.tx_enabled, "on", "off");
  AppendNumber(text, "tx_pause_frames", r.tx_pause_frames);
  AppendNumber(text, "rx_pause_frames", r.rx_pause_frames);
  return text;
}

std::string FormatStandardStatisticsRecording(const StandardStatistics& r) {
  std::string text = "# ethtool standard statistics (STATS_GET)\n";
  for (const auto& [name, value] : r.counters) text += name + ": " + std::to_string(value) + "\n";
  return text;
}

}  // namespace rocewatch
