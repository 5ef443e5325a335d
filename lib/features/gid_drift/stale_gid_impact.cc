#include "gid_drift/stale_gid_impact.h"

#include <algorithm>
#include <map>
#include <optional>

#include "nccl/nccl_version.h"

namespace rocewatch {
namespace {

std::string Fate(const RailConsumer& consumer, uint32_t old_index, uint32_t new_index) {
  const std::string old_text = std::to_string(old_index);
  const std::string new_text = std::to_string(new_index);
  std::optional<NcclVersion> version = ParseNcclVersion(consumer.nccl_version);
  long long index = -1;
  std::string how;
  if (consumer.nccl_gid_index && *consumer.nccl_gid_index >= 0) {
    index = *consumer.nccl_gid_index;
    how = "NCCL_IB_GID_INDEX=" + std::to_string(index);
  } else if (version && NcclDefaultGidIndex(*version) == 0 && !consumer.nccl_gid_index) {
    index = 0;
    how = "NCCL " + version->ToString() + " uses GID index 0 by default";
  }
  if (index >= 0) {
    if (index == static_cast<long long>(old_index))
      return how + ": its live and new connections use the stale index " + old_text +
             "; it fails or hangs until restarted with NCCL_IB_GID_INDEX=" + new_text;
    return how + ": not the moved GID's index, untouched by this move";
  }
  if (version)
    return "NCCL " + version->ToString() +
           ", automatic GID selection: its queue pairs created before the move keep the stale "
           "index " +
           old_text + " (collectives over this rail stall); new communicators use index " +
           new_text;
  return "queue pairs created before the move keep the stale index " + old_text +
         " until the process re-creates them";
}

}  // namespace

std::string DescribeStaleGidImpact(const std::vector<RailConsumer>& consumers, uint32_t old_index,
                                   uint32_t new_index) {
  // Consumers with the same fate read as one sentence naming them all.
  std::map<std::string, std::vector<std::string>> by_fate;
  std::vector<std::string> order;
  for (const RailConsumer& consumer : consumers) {
    std::string fate = Fate(consumer, old_index, new_index);
    if (!by_fate.count(fate)) order.push_back(fate);
    RailConsumer named = consumer;
    if (!named.pod.empty() || !named.job.empty()) {
      named.pid = 0;
      named.comm.clear();
    }
    named.nccl_version.clear();
    std::string name = named.Describe();
    std::vector<std::string>& names = by_fate[fate];
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::string text;
  for (const std::string& fate : order) {
    const std::vector<std::string>& names = by_fate[fate];
    std::string who;
    for (size_t i = 0; i < names.size() && i < 4; ++i) who += (i ? ", " : "") + names[i];
    if (names.size() > 4) who += " and " + std::to_string(names.size() - 4) + " more";
    text += (text.empty() ? "" : " ") + who + " (" + fate + ").";
  }
  return text;
}

}  // namespace rocewatch
