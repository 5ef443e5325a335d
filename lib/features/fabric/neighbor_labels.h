#pragma once
// What identifies a rail's far end in metrics and reports, bounded: each value is already valid
// UTF-8 without control characters (lldp/lldp_frame.h) and is cut here, at a character boundary,
// to kMaxNeighborLabelBytes, so a hostile frame cannot make a huge label.

#include <string>
#include <string_view>

#include "lldp/lldp_frame.h"

namespace rocewatch {

inline constexpr size_t kMaxNeighborLabelBytes = 128;

struct NeighborLabels {
  std::string chassis_id;
  std::string port_id;
  std::string system_name;       // "" when the frame has none
  std::string port_description;  // "" when the frame has none
};

NeighborLabels LabelsOf(const LldpFrame& frame);

// `text` cut to at most `max_bytes` without splitting a UTF-8 sequence.
// REQUIRES: text is valid UTF-8.
std::string CutUtf8(std::string_view text, size_t max_bytes);

// "leaf-07 port swp3" (the system name, else the chassis ID; the port ID), for events and reports.
std::string DescribeFarEnd(const LldpFrame& frame);

}  // namespace rocewatch
