#pragma once
// What the Monitor gives one component: its own MonitorContext, which passes everything on to the
// Monitor except the node state, of which it shows the component only the parts it declared
// (MonitorComponent::declaration()) and writes only those it provides.
//
// Threading: the event-loop thread only.

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "component/monitor_component.h"

namespace rocewatch {

class ComponentContext final : public MonitorContext {
 public:
  // REQUIRES: monitor and state outlive the context.
  ComponentContext(MonitorContext& monitor, NodeState& state, std::string component)
      : monitor_(monitor), state_(state), component_(std::move(component)) {
    Declare({});
  }

  // Sets what the component declared; until then it reads and writes nothing.
  void Declare(const StateDeclaration& declaration) {
    view_.emplace(state_, declaration, component_);
    writer_.emplace(state_, declaration.provides, component_);
  }

  EventLoop& loop() override { return monitor_.loop(); }
  const Clock& clock() const override { return monitor_.clock(); }
  void RequestSnapshot(std::string_view reason) override { monitor_.RequestSnapshot(reason); }
  void RequestPublish() override { monitor_.RequestPublish(); }
  const NodeStateView& state() const override { return *view_; }
  NodeStateWriter& state_writer() override { return *writer_; }
  void CountSourceError(std::string_view source, uint64_t count) override {
    monitor_.CountSourceError(source, count);
  }
  void RecordEvent(std::string_view what, Severity severity) override {
    monitor_.RecordEvent(what, severity);
  }
  FindingSince findings_since() const override { return monitor_.findings_since(); }
  void RestoreFindingsSince(FindingSince since) override {
    monitor_.RestoreFindingsSince(std::move(since));
  }

 private:
  MonitorContext& monitor_;
  NodeState& state_;
  const std::string component_;
  std::optional<NodeStateView> view_;
  std::optional<NodeStateWriter> writer_;
};

}  // namespace rocewatch
