#!/usr/bin/env bash
# The Kubernetes remediation example (deploy/kubernetes/remediation) renders with kustomize, passes
# yamllint, and acts on what rocewatch promises: the NodeCondition type and the reason of
# node-problem-detector's rule (deploy/npd) are the stable names docs/deploy.md documents, the
# NodeHealthCheck watches exactly that condition being True, selects the nodes the rocewatch
# DaemonSet runs on, and keeps a budget (maxUnhealthy, a percentage of at most 50%). The
# operators' CRDs are not here: the custom resources are checked for these fields, not against a
# schema.
source "$(dirname "$0")/deploy_lib.sh"
need_tool kubectl "the kubectl binary (kustomize)"
need_tool yamllint "Debian package yamllint"
need_tool python3 "Debian package python3"
cd "$src"
kubectl kustomize deploy/kubernetes/remediation >"$work/remediation.yaml" ||
  fail "kubectl kustomize deploy/kubernetes/remediation failed"
kubectl kustomize deploy/kubernetes/base >"$work/base.yaml" || fail "kubectl kustomize base failed"
yamllint --strict -c deploy/yamllint.yaml deploy/kubernetes/remediation || fail "yamllint"
python3 - "$work/remediation.yaml" "$work/base.yaml" deploy/npd/rocewatch-monitor.json docs/deploy.md <<'PY' || fail "see above"
import json, re, sys
import yaml
remediation = list(yaml.safe_load_all(open(sys.argv[1])))
base = list(yaml.safe_load_all(open(sys.argv[2])))
npd = json.load(open(sys.argv[3]))
deploy_doc = open(sys.argv[4]).read()
problems = []
kinds = {d["kind"]: d for d in remediation}
nhc = kinds.get("NodeHealthCheck")
template = kinds.get("SelfNodeRemediationTemplate")
if not nhc or not template:
    sys.exit("FAIL: expected a NodeHealthCheck and a SelfNodeRemediationTemplate, got %s" % sorted(kinds))
# The condition NPD keeps from rocewatch, and its reasons: stable, documented names.
rule = next(r for r in npd["rules"] if r["type"] == "permanent")
condition, critical = rule["condition"], rule["reason"]
healthy = next(c["reason"] for c in npd["conditions"] if c["type"] == condition)
if (condition, critical, healthy) != ("RDMANetworkProblem", "RDMANetworkCritical", "RDMANetworkHealthy"):
    problems.append("NPD condition/reasons changed: %s %s %s" % (condition, critical, healthy))
for name in (condition, critical, healthy):
    if "`%s`" % name not in deploy_doc:
        problems.append("docs/deploy.md does not document %s" % name)
spec = nhc["spec"]
if spec.get("unhealthyConditions") != [{"type": condition, "status": "True", "duration": "5m"}]:
    problems.append("NHC must watch %s=True: %s" % (condition, spec.get("unhealthyConditions")))
budget = str(spec.get("maxUnhealthy", ""))
if not re.fullmatch(r"\d+%", budget) or not 0 < int(budget[:-1]) <= 50:
    problems.append("NHC maxUnhealthy must be a percentage in (0, 50]: %r" % budget)
if "minHealthy" in spec:
    problems.append("NHC: maxUnhealthy and minHealthy exclude each other")
ref = spec.get("remediationTemplate", {})
if (ref.get("kind"), ref.get("name"), ref.get("namespace")) != (
        template["kind"], template["metadata"]["name"], template["metadata"]["namespace"]):
    problems.append("NHC remediationTemplate does not name the shipped template: %s" % ref)
if ref.get("apiVersion") != template["apiVersion"]:
    problems.append("NHC remediationTemplate apiVersion differs from the template's")
# The nodes: those the rocewatch DaemonSet schedules on (one of its nodeSelectorTerms).
ds = next(d for d in base if d["kind"] == "DaemonSet")
terms = ds["spec"]["template"]["spec"]["affinity"]["nodeAffinity"][
    "requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
if spec.get("selector", {}).get("matchExpressions") not in [t["matchExpressions"] for t in terms]:
    problems.append("NHC selector is not one of the DaemonSet's node selector terms")
strategy = template["spec"]["template"]["spec"].get("remediationStrategy")
if strategy not in ("Automatic", "OutOfServiceTaint", "ResourceDeletion"):
    problems.append("unknown Self Node Remediation strategy %r" % strategy)
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
PY
echo "ok   renders: $(grep -c '^kind:' "$work/remediation.yaml") objects; condition and budget as documented"
echo "PASS: Kubernetes remediation example"
