# Shared by tests/e2e/deploy_*_test.sh and systemd_unit_test.sh (sourced, not a test itself).
# Exit status 77 tells ctest the test was skipped; every skip names the missing tool.
set -euo pipefail

src=${ROCEWATCH_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
work=$(mktemp -d "${TMPDIR:-/tmp}/rocewatch-deploy.XXXXXX")
trap 'rm -rf "$work"' EXIT
# No test's daemon serves the host's /run/rocewatch socket (an empty value would be ignored).
export ROCEWATCH_API_SOCKET="$work/api.sock"

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

# Writes a one-device sysfs tree under DIR (DIR/class/infiniband/mlx5_0): a RoCE port in STATE
# ("4: ACTIVE", "1: DOWN") riding on the loopback netdev `lo`, whose 127.0.0.1 is a real IPv4
# address of this namespace; with GID=yes the port holds the RoCE v2 GID of 127.0.0.1 at index 3
# (after the default GIDs at 0 and 1 and the RoCE v1 GID at 2), with GID=no only the defaults.
make_loopback_rnic() {  # DIR STATE GID
  local port="$1/class/infiniband/mlx5_0/ports/1" i
  mkdir -p "$port/gids" "$port/gid_attrs/types" "$port/gid_attrs/ndevs" "$port/counters" \
    "$1/class/infiniband/mlx5_0/device/net/lo"
  echo "28.39.1002" >"$1/class/infiniband/mlx5_0/fw_ver"
  echo "MT4129" >"$1/class/infiniband/mlx5_0/hca_type"
  echo "b8ce:f603:00e4:5a3c" >"$1/class/infiniband/mlx5_0/node_guid"
  echo "$2" >"$port/state"
  echo "5: LinkUp" >"$port/phys_state"
  echo "Ethernet" >"$port/link_layer"
  echo "400 Gb/sec (4X NDR)" >"$port/rate"
  for i in 0 1 2 3 4 5 6 7; do echo "0000:0000:0000:0000:0000:0000:0000:0000" >"$port/gids/$i"; done
  # The default GIDs (fe80:: + EUI-64) in slots 0 and 1, then 127.0.0.1's RoCE v1 and v2 GIDs.
  local -a gids=(fe80:0000:0000:0000:0000:00ff:fe00:0000 fe80:0000:0000:0000:0000:00ff:fe00:0000)
  [ "$3" = yes ] && gids+=(0000:0000:0000:0000:0000:ffff:7f00:0001 0000:0000:0000:0000:0000:ffff:7f00:0001)
  for i in "${!gids[@]}"; do
    echo "${gids[$i]}" >"$port/gids/$i"
    if [ $((i % 2)) -eq 0 ]; then echo "IB/RoCE v1"; else echo "RoCE v2"; fi >"$port/gid_attrs/types/$i"
    echo "lo" >"$port/gid_attrs/ndevs/$i"
  done
  echo 0 >"$port/counters/port_xmit_data"
  echo 0 >"$port/counters/port_rcv_data"
}
