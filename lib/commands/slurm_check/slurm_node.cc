#include "slurm_check/slurm_node.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"

namespace rocewatch {
namespace {

std::string ToUpper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// "text [user@2026-12-02T04:24:24]" -> "text".
std::string WithoutStamp(std::string_view reason) {
  reason = Trim(reason);
  if (!reason.empty() && reason.back() == ']') {
    size_t open = reason.rfind(" [");
    if (open != std::string_view::npos && reason.substr(open).find('@') != std::string_view::npos)
      reason = reason.substr(0, open);
  }
  return std::string(Trim(reason));
}

void AddPartition(SlurmNode& node, std::string_view name) {
  std::string partition(Trim(name));
  if (!partition.empty() && partition.back() == '*') partition.pop_back();
  if (partition.empty() || partition == "(null)") return;
  if (std::find(node.partitions.begin(), node.partitions.end(), partition) == node.partitions.end())
    node.partitions.push_back(std::move(partition));
}

}  // namespace

bool SlurmNode::Drained() const { return state.find("DRAIN") != std::string::npos; }

bool SlurmNode::DrainedByRocewatch() const {
  return Drained() && reason.rfind(kRocewatchReasonPrefix, 0) == 0;
}

StatusOr<SlurmNode> ParseScontrolNode(std::string_view line) {
  line = Trim(line);
  SlurmNode node;
  bool has_state = false;
  // Reason= is the last field and may hold anything; cut it off first.
  size_t reason_at = line.find(" Reason=");
  if (reason_at != std::string_view::npos) {
    node.reason = WithoutStamp(line.substr(reason_at + 8));
    line = line.substr(0, reason_at);
  }
  for (const std::string& field : SplitFields(line, " ")) {
    size_t eq = field.find('=');
    if (eq == std::string::npos) continue;
    std::string_view key(field.data(), eq), value(field.data() + eq + 1, field.size() - eq - 1);
    if (key == "NodeName") node.name = std::string(value);
    if (key == "State") {
      node.state = ToUpper(value);
      has_state = true;
    }
    if (key == "Partitions")
      for (const std::string& p : SplitFields(value, ",")) AddPartition(node, p);
  }
  if (node.name.empty() || !has_state)
    return Status::InvalidArgument("not a scontrol node line (no NodeName= or State=)");
  if (node.reason == "(null)") node.reason.clear();
  return node;
}

StatusOr<std::vector<SlurmNode>> ParseSinfoNodes(std::string_view text) {
  std::vector<SlurmNode> nodes;
  for (std::string_view line : SplitLines(text)) {
    if (Trim(line).empty()) continue;
    size_t a = line.find('|');
    size_t b = a == std::string_view::npos ? a : line.find('|', a + 1);
    size_t c = b == std::string_view::npos ? b : line.find('|', b + 1);
    if (c == std::string_view::npos)
      return Status::InvalidArgument("sinfo line without 4 fields: '" +
                                     std::string(line.substr(0, 80)) + "'");
    std::string name(Trim(line.substr(0, a)));
    if (name.empty()) return Status::InvalidArgument("sinfo line without a node name");
    auto it = std::find_if(nodes.begin(), nodes.end(),
                           [&](const SlurmNode& n) { return n.name == name; });
    if (it == nodes.end()) {
      SlurmNode node;
      node.name = name;
      node.state = ToUpper(Trim(line.substr(a + 1, b - a - 1)));
      std::string reason = WithoutStamp(line.substr(c + 1));
      node.reason = reason == "none" ? "" : reason;
      nodes.push_back(std::move(node));
      it = nodes.end() - 1;
    }
    AddPartition(*it, line.substr(b + 1, c - b - 1));
  }
  return nodes;
}

}  // namespace rocewatch
