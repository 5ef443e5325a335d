#!/usr/bin/env bash
# The release version lives in one place, project(VERSION) of CMakeLists.txt (scripts/version.sh
# reads it), and every copy follows it: `rocewatch version`, the image tags of the rocewatch images
# in every rendered kustomization, and a CHANGELOG.md section. LICENSE is the Apache-2.0 text.
source "$(dirname "$0")/deploy_lib.sh"
binary=${ROCEWATCH_BINARY:?ROCEWATCH_BINARY is not set}
version=$("$src/scripts/version.sh") || fail "scripts/version.sh found no version"
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "version '$version' is not MAJOR.MINOR.PATCH"

case "$("$binary" version)" in
  "rocewatch $version ("*) echo "ok   rocewatch version: $("$binary" version)" ;;
  *) fail "rocewatch version prints '$("$binary" version)', not rocewatch $version" ;;
esac

grep -q "^## \[$version\] - [0-9]\{4\}-[0-9]\{2\}-[0-9]\{2\}$" "$src/CHANGELOG.md" ||
  fail "CHANGELOG.md has no '## [$version] - YYYY-MM-DD' section"
echo "ok   CHANGELOG.md has a section for $version"

grep -q "Apache License" <<<"$(head -3 "$src/LICENSE")" && grep -q "Version 2.0, January 2004" "$src/LICENSE" &&
  grep -q "END OF TERMS AND CONDITIONS" "$src/LICENSE" || fail "LICENSE is not the Apache-2.0 text"
echo "ok   LICENSE is Apache-2.0"

if command -v kubectl >/dev/null 2>&1; then
  checked=0
  while IFS= read -r kustomization; do
    dir=$(dirname "$kustomization")
    grep -q "^kind: Component" "$kustomization" && continue  # rendered through the overlays
    kubectl kustomize "$dir" >"$work/rendered.yaml" 2>"$work/err" || fail "$dir does not render: $(cat "$work/err")"
    while read -r image; do
      tag=${image##*:}
      [ "$tag" = "$version" ] || fail "$dir renders image $image, not tag $version"
      checked=$((checked + 1))
    done < <(sed -n 's/^ *image: \(.*\/rocewatch\(-npd\)\?:[^ ]*\)$/\1/p' "$work/rendered.yaml")
  done < <(find "$src/deploy" "$src/tests/e2e/fixtures" -name kustomization.yaml -not -path '*/node_modules/*' | sort)
  [ "$checked" -gt 0 ] || fail "no rendered rocewatch image reference found"
  echo "ok   $checked rendered rocewatch image references carry tag $version"
else
  echo "note: kubectl is not installed; the manifests' image tags were not checked"
fi
echo "PASS: version $version in one place"
