#!/usr/bin/env bash
# Prints rocewatch's release version, read from the one place that holds it: project(VERSION) in
# the top-level CMakeLists.txt. Used by `make image` (the image tag) and the version test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^project(rocewatch VERSION \([0-9][0-9.]*\)[ )].*/\1/p' "$root/CMakeLists.txt")
if [ -z "$version" ]; then
  echo "version.sh: no 'project(rocewatch VERSION X.Y.Z ...)' line in $root/CMakeLists.txt" >&2
  exit 1
fi
echo "$version"
