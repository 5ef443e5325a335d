#include "fabric/neighbor_labels.h"

namespace rocewatch {

std::string CutUtf8(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t end = max_bytes;
  // Back off continuation bytes (10xxxxxx) so the cut falls before a sequence's lead byte.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

NeighborLabels LabelsOf(const LldpFrame& frame) {
  return NeighborLabels{
      .chassis_id = CutUtf8(frame.chassis_id.value, kMaxNeighborLabelBytes),
      .port_id = CutUtf8(frame.port_id.value, kMaxNeighborLabelBytes),
      .system_name = CutUtf8(frame.system_name.value_or(""), kMaxNeighborLabelBytes),
      .port_description = CutUtf8(frame.port_description.value_or(""), kMaxNeighborLabelBytes),
  };
}

std::string DescribeFarEnd(const LldpFrame& frame) {
  NeighborLabels labels = LabelsOf(frame);
  std::string name = labels.system_name.empty() ? labels.chassis_id : labels.system_name;
  return name + " port " + labels.port_id;
}

}  // namespace rocewatch
