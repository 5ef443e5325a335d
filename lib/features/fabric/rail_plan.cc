#include "fabric/rail_plan.h"

#include <set>

#include "core/text.h"

namespace rocewatch {
namespace {

constexpr std::string_view kSubstitutions[] = {"rail", "rail1", "node", "n"};

// Checks every {name} of `pattern` against the known substitutions.
Status CheckSubstitutions(std::string_view pattern) {
  for (size_t open = pattern.find('{'); open != std::string_view::npos;
       open = pattern.find('{', open + 1)) {
    size_t close = pattern.find('}', open);
    if (close == std::string_view::npos) return Status::InvalidArgument("'{' without '}'");
    std::string_view name = pattern.substr(open + 1, close - open - 1);
    bool known = false;
    for (std::string_view s : kSubstitutions) known = known || s == name;
    if (!known)
      return Status::InvalidArgument("unknown substitution {" + std::string(name) +
                                     "} (known: {rail} {rail1} {node} {n})");
  }
  return Status::Ok();
}

std::string Substitute(std::string_view pattern, const RailIdentity& rail,
                       std::string_view node_name) {
  std::string out;
  for (size_t i = 0; i < pattern.size();) {
    if (pattern[i] == '{') {
      size_t close = pattern.find('}', i);
      std::string_view name = pattern.substr(i + 1, close - i - 1);
      if (name == "rail") out += std::to_string(rail.index);
      if (name == "rail1") out += std::to_string(rail.index + 1);
      if (name == "node") out += node_name;
      if (name == "n") out += NodeNumber(node_name).value_or("");
      i = close + 1;
    } else {
      out += pattern[i++];
    }
  }
  return out;
}

bool NamesRail(const std::string& selector, const RailIdentity& rail) {
  return selector == rail.netdev || selector == rail.device ||
         selector == rail.device + "/" + std::to_string(rail.port);
}

}  // namespace

bool RailPlan::UsesNodeNumber() const {
  for (const RailPlanLine& line : lines)
    if (line.switch_pattern.find("{n}") != std::string::npos ||
        line.port_pattern.find("{n}") != std::string::npos)
      return true;
  return false;
}

StatusOr<RailPlan> ParseRailPlan(std::string_view text) {
  if (text.size() > kMaxRailPlanBytes)
    return Status::InvalidArgument("larger than " + std::to_string(kMaxRailPlanBytes) + " bytes");
  RailPlan plan;
  std::set<std::string> named;
  int number = 0;
  for (std::string_view raw : SplitLines(text)) {
    ++number;
    std::string_view line = Trim(raw.substr(0, raw.find('#')));
    if (line.empty()) continue;
    auto fail = [number](const std::string& why) {
      return Status::InvalidArgument("line " + std::to_string(number) + ": " + why);
    };
    std::vector<std::string> fields = SplitFields(line, " \t");
    if (fields.size() != 3)
      return fail("expected 3 fields (rail switch port), got " + std::to_string(fields.size()));
    for (const std::string& field : fields) {
      if (field.size() > kMaxRailPlanFieldBytes)
        return fail("a field longer than " + std::to_string(kMaxRailPlanFieldBytes) + " bytes");
      if (!IsPrintableAscii(field)) return fail("a field with a non-printable or non-ASCII byte");
    }
    for (size_t i : {1, 2})
      if (Status s = CheckSubstitutions(fields[i]); !s.ok()) return fail(s.message());
    if (!named.insert(fields[0]).second) return fail("rail " + fields[0] + " is planned twice");
    if (plan.lines.size() == kMaxRailPlanLines)
      return fail("more than " + std::to_string(kMaxRailPlanLines) + " rail lines");
    plan.lines.push_back({fields[0], fields[1], fields[2], number});
  }
  if (plan.lines.empty()) return Status::InvalidArgument("no rail line (rail switch port)");
  return plan;
}

namespace {

// The line for `rail`: the first that names it, else the `*` line; null for none or one that
// retires it (`- -`).
const RailPlanLine* LineFor(const RailPlan& plan, const RailIdentity& rail) {
  const RailPlanLine* chosen = nullptr;
  for (const RailPlanLine& line : plan.lines) {
    if (NamesRail(line.rail, rail)) {
      chosen = &line;
      break;
    }
    if (line.rail == "*" && chosen == nullptr) chosen = &line;
  }
  if (chosen != nullptr && chosen->switch_pattern == "-" && chosen->port_pattern == "-")
    return nullptr;
  return chosen;
}

}  // namespace

bool PlanListsRail(const RailPlan& plan, const RailIdentity& rail) {
  return LineFor(plan, rail) != nullptr;
}

std::optional<PlannedFarEnd> PlanFor(const RailPlan& plan, const RailIdentity& rail,
                                     std::string_view node_name) {
  const RailPlanLine* chosen = LineFor(plan, rail);
  if (chosen == nullptr) return std::nullopt;
  return PlannedFarEnd{Substitute(chosen->switch_pattern, rail, node_name),
                       Substitute(chosen->port_pattern, rail, node_name), chosen->line_number};
}

bool MatchesPlan(const PlannedFarEnd& planned, std::string_view system_name,
                 std::string_view chassis_id, std::string_view port_id,
                 std::string_view port_description) {
  bool switch_ok = (!system_name.empty() && GlobMatch(planned.switch_pattern, system_name)) ||
                   GlobMatch(planned.switch_pattern, chassis_id);
  bool port_ok = GlobMatch(planned.port_pattern, port_id) ||
                 (!port_description.empty() && GlobMatch(planned.port_pattern, port_description));
  return switch_ok && port_ok;
}

std::optional<std::string> NodeNumber(std::string_view node_name) {
  size_t end = node_name.size();
  while (end > 0 && !(node_name[end - 1] >= '0' && node_name[end - 1] <= '9')) --end;
  if (end == 0) return std::nullopt;
  size_t begin = end;
  while (begin > 0 && node_name[begin - 1] >= '0' && node_name[begin - 1] <= '9') --begin;
  while (begin + 1 < end && node_name[begin] == '0') ++begin;
  return std::string(node_name.substr(begin, end - begin));
}

}  // namespace rocewatch
