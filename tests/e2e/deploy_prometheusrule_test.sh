#!/usr/bin/env bash
# The PrometheusRule of the kustomize base carries exactly deploy/prometheus/rocewatch-rules.yaml:
# it is up to date with its generator, and equal as data once rendered. The generator is also run
# on a rule file with comments and multi-line annotations, to show it keeps them intact.
source "$(dirname "$0")/deploy_lib.sh"
need_tool kubectl "kubectl with kustomize, from the machine image"
need_node_tools
generator="$src/deploy/kubernetes/generate-prometheusrule.sh"
compare="$src/deploy/tools/compare-rules.mjs"

"$generator" --check || fail "core/prometheusrule.yaml is not what the generator makes"
kubectl kustomize "$src/deploy/kubernetes/base" >"$work/rendered.yaml"
node "$compare" "$work/rendered.yaml" "$src/deploy/prometheus/rocewatch-rules.yaml" ||
  fail "the rendered PrometheusRule differs from the rule file"

cat >"$work/rules.yaml" <<'RULES'
---
# A comment before the groups.
groups:
- name: example
  rules:
  - alert: ExampleDown
    expr: |
      up{job="rocewatch"}

        == 0
    for: 5m
    keep_firing_for: 10m
    labels:
      severity: critical
    annotations:
      summary: "rocewatch down on {{ $labels.node }}"
      description: >-
        folded
        text
RULES
ROCEWATCH_RULES_FILE="$work/rules.yaml" "$generator" --stdout >"$work/generated.yaml"
node "$compare" "$work/generated.yaml" "$work/rules.yaml" || fail "the generator altered a rule file"
cp "$work/rules.yaml" "$work/changed.yaml"
sed -i 's/for: 5m/for: 6m/' "$work/changed.yaml"
if node "$compare" "$work/generated.yaml" "$work/changed.yaml" >/dev/null; then
  fail "compare-rules.mjs did not see a changed duration"
fi
echo "PASS: the PrometheusRule equals the rule file"
