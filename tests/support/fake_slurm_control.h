#pragma once
// A Slurm cluster in memory, for the health check's tests: nodes with state and reason, drains
// and resumes applied to them, every call recorded, and any call made to fail.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "slurm_check/slurm_control.h"

namespace rocewatch {

class FakeSlurmControl final : public SlurmControl {
 public:
  // A node in partition "gpu", IDLE, or drained with `reason`.
  FakeSlurmControl& Node(const std::string& name, const std::string& drain_reason = "") {
    SlurmNode node{name, drain_reason.empty() ? "IDLE" : "IDLE+DRAIN", drain_reason, {"gpu"}};
    nodes_[name] = node;
    return *this;
  }
  const SlurmNode& node(const std::string& name) { return nodes_.at(name); }
  const std::vector<std::string>& calls() const { return calls_; }
  // The next calls of that kind ("show", "list", "drain", "resume", "requeue") fail with it.
  void Fail(const std::string& kind, Status status) { failures_[kind] = std::move(status); }

  StatusOr<SlurmNode> ShowNode(const std::string& name) override {
    calls_.push_back("show " + name);
    if (auto f = failures_.find("show"); f != failures_.end()) return f->second;
    auto it = nodes_.find(name);
    if (it == nodes_.end()) return Status::NotFound("no node " + name);
    return it->second;
  }
  StatusOr<std::vector<SlurmNode>> ListNodes(const std::vector<std::string>& partitions) override {
    calls_.push_back("list" + std::string(partitions.empty() ? "" : " " + partitions[0]));
    if (auto f = failures_.find("list"); f != failures_.end()) return f->second;
    std::vector<SlurmNode> nodes;
    for (const auto& [name, node] : nodes_) nodes.push_back(node);
    return nodes;
  }
  Status Drain(const std::string& name, const std::string& reason) override {
    calls_.push_back("drain " + name + " " + reason);
    if (auto f = failures_.find("drain"); f != failures_.end()) return f->second;
    nodes_[name].state = "IDLE+DRAIN";
    nodes_[name].reason = reason;
    return Status::Ok();
  }
  Status Resume(const std::string& name) override {
    calls_.push_back("resume " + name);
    if (auto f = failures_.find("resume"); f != failures_.end()) return f->second;
    nodes_[name].state = "IDLE";
    nodes_[name].reason.clear();
    return Status::Ok();
  }
  Status Requeue(const std::string& job) override {
    calls_.push_back("requeue " + job);
    if (auto f = failures_.find("requeue"); f != failures_.end()) return f->second;
    return Status::Ok();
  }

 private:
  std::map<std::string, SlurmNode> nodes_;
  std::vector<std::string> calls_;
  std::map<std::string, Status> failures_;
};

}  // namespace rocewatch
