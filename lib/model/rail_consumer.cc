#include "model/rail_consumer.h"

#include <set>
#include <vector>

namespace rocewatch {

std::string RailConsumer::Describe() const {
  std::vector<std::string> parts;
  if (!pod.empty())
    parts.push_back("pod " + (pod_namespace.empty() ? pod : pod_namespace + "/" + pod));
  if (!job.empty()) parts.push_back("job " + job);
  if (pid != 0)
    parts.push_back("pid " + std::to_string(pid) + (comm.empty() ? "" : " (" + comm + ")"));
  if (!nccl_version.empty()) parts.push_back("NCCL " + nccl_version);
  if (parts.empty()) return "an unnamed consumer";
  std::string text = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) text += ", " + parts[i];
  return text;
}

const char* ConsumerKnowledgeLabel(ConsumerKnowledge knowledge) {
  switch (knowledge) {
    case ConsumerKnowledge::kNone:
      return "none";
    case ConsumerKnowledge::kPresent:
      return "present";
    case ConsumerKnowledge::kUnknown:
      break;
  }
  return "unknown";
}

ConsumerKnowledge ConsumerObservation::KnowledgeOf(const std::string& device) const {
  auto found = devices.find(device);
  return found == devices.end() ? ConsumerKnowledge::kUnknown : found->second.knowledge;
}

const std::vector<RailConsumer>& ConsumerObservation::ConsumersOf(const std::string& device) const {
  static const std::vector<RailConsumer> kNoConsumers;
  auto found = devices.find(device);
  return found == devices.end() ? kNoConsumers : found->second.consumers;
}

std::string ConsumerObservation::DescribeConsumers(const std::string& device, size_t limit) const {
  const std::vector<RailConsumer>& consumers = ConsumersOf(device);
  if (consumers.empty()) {
    ConsumerKnowledge knowledge = KnowledgeOf(device);
    return knowledge == ConsumerKnowledge::kPresent ? "a job on the node (not mapped to devices)"
                                                    : ConsumerKnowledgeLabel(knowledge);
  }
  // The processes of one pod or job read as one name.
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const RailConsumer& consumer : consumers) {
    RailConsumer named = consumer;
    if (!named.pod.empty() || !named.job.empty()) {
      named.pid = 0;
      named.comm.clear();
    }
    std::string name = named.Describe();
    if (seen.insert(name).second) names.push_back(name);
  }
  std::string text;
  for (size_t i = 0; i < names.size() && i < limit; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > limit) text += " and " + std::to_string(names.size() - limit) + " more";
  return text;
}

}  // namespace rocewatch
