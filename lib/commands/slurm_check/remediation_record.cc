#include "slurm_check/remediation_record.h"

#include <nlohmann/json.hpp>

namespace rocewatch {
namespace {

using nlohmann::json;

std::string StringOf(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

double NumberOf(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0;
}

}  // namespace

void RemediationRecord::Note(const Action& action) {
  counts[{action.action, action.reason}] += 1;
  actions.push_back(action);
  if (actions.size() > kMaxActions) actions.erase(actions.begin());
}

StatusOr<RemediationRecord> ParseRemediationRecord(std::string_view text) {
  json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!document.is_object() || NumberOf(document, "version") != 1)
    return Status::InvalidArgument("not a rocewatch slurm-check record (version 1)");
  RemediationRecord record;
  if (auto it = document.find("clear_since"); it != document.end() && it->is_number())
    record.clear_since_unix = it->get<double>();
  record.last_run_unix = NumberOf(document, "last_run");
  if (auto it = document.find("fabric_problem"); it != document.end() && it->is_boolean())
    record.fabric_problem = it->get<bool>();
  if (auto it = document.find("budget"); it != document.end() && it->is_object()) {
    record.last_budget.known = true;
    record.last_budget.scope_nodes = static_cast<int>(NumberOf(*it, "scope_nodes"));
    record.last_budget.drained_by_rocewatch = static_cast<int>(NumberOf(*it, "drained"));
    record.last_budget.limit = static_cast<int>(NumberOf(*it, "limit"));
  }
  if (auto it = document.find("counts"); it != document.end() && it->is_array())
    for (const json& c : *it)
      if (c.is_object() && !StringOf(c, "action").empty())
        record.counts[{StringOf(c, "action"), StringOf(c, "reason")}] = NumberOf(c, "count");
  if (auto it = document.find("actions"); it != document.end() && it->is_array())
    for (const json& a : *it) {
      if (!a.is_object()) continue;
      record.actions.push_back({NumberOf(a, "time"), StringOf(a, "node"), StringOf(a, "action"),
                                StringOf(a, "reason"), StringOf(a, "evidence")});
      if (record.actions.size() > RemediationRecord::kMaxActions)
        record.actions.erase(record.actions.begin());
    }
  return record;
}

std::string RemediationRecordToJson(const RemediationRecord& record) {
  json document = {{"version", 1},
                   {"last_run", record.last_run_unix},
                   {"fabric_problem", record.fabric_problem}};
  document["clear_since"] =
      record.clear_since_unix ? json(*record.clear_since_unix) : json(nullptr);
  if (record.last_budget.known)
    document["budget"] = {{"scope_nodes", record.last_budget.scope_nodes},
                          {"drained", record.last_budget.drained_by_rocewatch},
                          {"limit", record.last_budget.limit}};
  json counts = json::array();
  for (const auto& [key, count] : record.counts)
    counts.push_back({{"action", key.first}, {"reason", key.second}, {"count", count}});
  document["counts"] = counts;
  json actions = json::array();
  for (const RemediationRecord::Action& a : record.actions)
    actions.push_back({{"time", a.time_unix},
                       {"node", a.node},
                       {"action", a.action},
                       {"reason", a.reason},
                       {"evidence", a.evidence}});
  document["actions"] = actions;
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace rocewatch
