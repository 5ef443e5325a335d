#!/usr/bin/env bash
# Every kustomization of deploy/ renders with `kubectl kustomize`, and every rendered object is
# valid against the Kubernetes and prometheus-operator schemas and the deployment policy
# (deploy/tools/validate-manifests.mjs): the base, each overlay, and the node-problem-detector
# component applied to a stand-in of NPD's own DaemonSet.
source "$(dirname "$0")/deploy_lib.sh"
need_tool kubectl "kubectl with kustomize, from the machine image"
need_node_tools

render_and_validate() {  # POLICY KUSTOMIZATION_DIR
  local out="$work/$1.yaml"
  kubectl kustomize "$2" >"$out" || fail "kubectl kustomize $2 does not render"
  node "$src/deploy/tools/validate-manifests.mjs" "$1" "$out" || fail "$2 rendered invalid objects"
}

render_and_validate base "$src/deploy/kubernetes/base"
overlays=0
for dir in "$src"/deploy/kubernetes/overlays/*/; do
  render_and_validate "$(basename "$dir")" "$dir"
  overlays=$((overlays + 1))
done
[ "$overlays" -ge 2 ] || fail "expected the verbs and kube-prometheus-stack overlays, found $overlays"
render_and_validate npd "$src/tests/e2e/fixtures/npd"

# The verbs overlay's patch pins the argument it replaces: a base whose arguments moved must make
# the overlay fail to render instead of silently patching the wrong argument.
cp -r "$src/deploy/kubernetes" "$work/moved"
sed -i 's/- --gid-source=sysfs/- --gid-source=auto/' "$work/moved/base/daemonset.yaml"
if kubectl kustomize "$work/moved/overlays/verbs" >/dev/null 2>&1; then
  fail "the verbs overlay rendered although the base's --gid-source argument changed"
fi
echo "PASS: base, $overlays overlays and the NPD component render and validate"
