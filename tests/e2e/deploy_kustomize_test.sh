#!/usr/bin/env bash
# Every kustomization of deploy/ renders with `kubectl kustomize`, and every rendered object is
# valid against the Kubernetes and prometheus-operator schemas and the deployment policy
# (deploy/tools/validate-manifests.mjs): the base (the core behind kube-rbac-proxy: the default);
# the core with every combination of the verbs, kube-rbac-proxy, kube-prometheus-stack and
# job-awareness components (they compose: each combination renders and keeps every component's
# promises); the example and plain overlays; the node-problem-detector component on a stand-in of
# NPD's own DaemonSet, alone and rendered together with all the others. The validator must also
# refuse a wrong component order and a core that forces the sysfs GID source.
source "$(dirname "$0")/deploy_lib.sh"
need_tool kubectl "kubectl with kustomize, from the machine image"
need_node_tools

validate() {  # POLICY RENDERED
  node "$src/deploy/tools/validate-manifests.mjs" "$1" "$2"
}

render_and_validate() {  # POLICY KUSTOMIZATION_DIR
  local out="$work/render-$(echo "$1" | tr , -).yaml"
  kubectl kustomize "$2" >"$out" || fail "kubectl kustomize $2 does not render"
  validate "$1" "$out" || fail "$2 rendered invalid objects"
}

# A private copy of deploy/, so that the test's own kustomizations sit beside the components.
mkdir -p "$work/deploy"
cp -r "$src/deploy/kubernetes" "$src/deploy/grafana" "$src/deploy/npd" "$work/deploy/"
cp "$src/tests/e2e/fixtures/npd/node-problem-detector.yaml" "$work/"

compose() {  # NAME COMPONENT... : writes $work/deploy/kubernetes/compose/NAME/kustomization.yaml
  local dir="$work/deploy/kubernetes/compose/$1" component
  shift
  mkdir -p "$dir"
  {
    echo "resources:"
    echo "  - ../../core"
    [ "${WITH_NPD:-}" = yes ] && echo "  - npd"
    echo "components:"
    for component in "$@"; do
      if [ "$component" = node-problem-detector ]; then echo "  - ../../../npd"; else
        echo "  - ../../components/$component"; fi
    done
  } >"$dir/kustomization.yaml"
  if [ "${WITH_NPD:-}" = yes ]; then
    mkdir -p "$dir/npd"
    cp "$work/node-problem-detector.yaml" "$dir/npd/"
    printf 'resources:\n  - node-problem-detector.yaml\n' >"$dir/npd/kustomization.yaml"
  fi
  echo "$dir"
}

# The default render: nothing reaches the metrics port but through kube-rbac-proxy.
render_and_validate core,kube-rbac-proxy "$src/deploy/kubernetes/base"
grep -q 'image: quay.io/brancz/kube-rbac-proxy:' "$work/render-core-kube-rbac-proxy.yaml" ||
  fail "the base has no kube-rbac-proxy container"
# Labs: the core as it is.
render_and_validate core "$src/deploy/kubernetes/overlays/plain"

# Every subset of the components, in the documented order.
all=(verbs kube-rbac-proxy kube-prometheus-stack job-awareness)
combinations=0
for mask in $(seq 1 $(((1 << ${#all[@]}) - 1))); do
  chosen=()
  for i in "${!all[@]}"; do
    if (((mask >> i) & 1)); then chosen+=("${all[$i]}"); fi
  done
  policy="core,$(IFS=,; echo "${chosen[*]}")"
  render_and_validate "$policy" "$(compose "c$mask" "${chosen[@]}")"
  combinations=$((combinations + 1))
done

# The example overlay: the verbs resource and kube-rbac-proxy, among others.
render_and_validate core,verbs,kube-rbac-proxy,kube-prometheus-stack "$src/deploy/kubernetes/overlays/example"
grep -q 'rdma/rdma_shared_device_a' "$work/render-core-verbs-kube-rbac-proxy-kube-prometheus-stack.yaml" ||
  fail "the example overlay has no RDMA device resource"
grep -q 'image: quay.io/brancz/kube-rbac-proxy:' "$work/render-core-verbs-kube-rbac-proxy-kube-prometheus-stack.yaml" ||
  fail "the example overlay has no kube-rbac-proxy container"
grep -A1 'name: ROCEWATCH_EXPECTED_GID_INDEX' "$work/render-core-verbs-kube-rbac-proxy-kube-prometheus-stack.yaml" |
  grep -q 'value: "3"' || fail "the example overlay does not pin the expected GID index"

# NPD's own kustomization with the component, and everything in one kustomization.
render_and_validate npd "$src/tests/e2e/fixtures/npd"
render_and_validate core,verbs,kube-rbac-proxy,kube-prometheus-stack,node-problem-detector \
  "$(WITH_NPD=yes compose everything verbs kube-rbac-proxy kube-prometheus-stack node-problem-detector)"

# The validator refuses what the components must not do.
kubectl kustomize "$(compose reversed kube-prometheus-stack kube-rbac-proxy)" >"$work/reversed.yaml"
if validate core,kube-rbac-proxy,kube-prometheus-stack "$work/reversed.yaml" >"$work/out"; then
  fail "a ServiceMonitor without the release label (components in the wrong order) passed"
fi
grep -q "ServiceMonitor/rocewatch: needs the Helm release label" "$work/out" ||
  fail "the wrong order was refused for another reason: $(cat "$work/out")"
sed -i 's|^            - name: ROCEWATCH_LOG_FORMAT$|            - name: ROCEWATCH_GID_SOURCE\n              value: sysfs\n&|' \
  "$work/deploy/kubernetes/core/daemonset.yaml"
kubectl kustomize "$work/deploy/kubernetes/core" >"$work/sysfs.yaml"
grep -q 'value: sysfs' "$work/sysfs.yaml" || fail "the test could not force sysfs in its copy of the core"
if validate core "$work/sysfs.yaml" >"$work/out"; then
  fail "a core forcing the sysfs GID source passed"
fi
echo "PASS: base, core with $combinations component combinations, the example and plain overlays and NPD render and validate"
