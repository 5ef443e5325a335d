# Shared by tests/e2e/deploy_*_test.sh and systemd_unit_test.sh (sourced, not a test itself).
# Exit status 77 tells ctest the test was skipped; every skip names the missing tool.
set -euo pipefail

src=${ROCEWATCH_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
work=$(mktemp -d "${TMPDIR:-/tmp}/rocewatch-deploy.XXXXXX")
trap 'rm -rf "$work"' EXIT

skip() {
  echo "SKIP: $*"
  exit 77
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

need_tool() {
  command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed ($2)"
}

# The npm packages of deploy/tools (schemas, YAML parser), installed from the committed lock file.
need_node_tools() {
  need_tool node "Debian package nodejs"
  need_tool npm "Debian package npm"
  if [ ! -d "$src/deploy/tools/node_modules" ]; then
    (cd "$src/deploy/tools" && npm ci --no-audit --no-fund --loglevel=error) ||
      fail "npm ci in deploy/tools failed (the npm registry must be reachable once)"
  fi
}

# The CMake build tree that holds the binary under test (ROCEWATCH_BINARY).
build_dir() {
  local dir
  dir=$(dirname "${ROCEWATCH_BINARY:?ROCEWATCH_BINARY is not set}")
  while [ "$dir" != / ] && [ ! -f "$dir/CMakeCache.txt" ]; do dir=$(dirname "$dir"); done
  [ -f "$dir/CMakeCache.txt" ] || fail "no CMake build tree above $ROCEWATCH_BINARY"
  echo "$dir"
}
