#!/usr/bin/env bash
# `rocewatch diagnose --npd` speaks node-problem-detector's plugin protocol (exit 0 OK, 1 NonOK,
# 2 Unknown; exactly one line on stdout), run with the very arguments of deploy/npd's rule, on
# fixture host roots whose RDMA port rides on `lo` (a real IPv4 address, no root needed).
source "$(dirname "$0")/deploy_lib.sh"
binary=${ROCEWATCH_BINARY:?ROCEWATCH_BINARY is not set}
need_tool python3 "Debian package python3"

# The rule's command line, with its --host-root pointed at a fixture.
mapfile -t rule_args < <(python3 -c '
import json, sys
rule = next(r for r in json.load(open(sys.argv[1]))["rules"] if r["condition"] == "RDMANetworkProblem")
print("\n".join(rule["args"]))' "$src/deploy/npd/rocewatch-monitor.json")

expect_npd() {  # NAME HOST_ROOT EXPECTED_STATUS EXPECTED_LINE_PREFIX
  local args=("${rule_args[@]/#--host-root=*/--host-root=$2}") status=0
  "$binary" "${args[@]}" >"$work/out" 2>"$work/err" || status=$?
  [ "$status" -eq "$3" ] || fail "$1: exit $status, expected $3 (stdout: $(cat "$work/out"))"
  [ "$(wc -l <"$work/out")" -eq 1 ] || fail "$1: stdout must be exactly one line: $(cat "$work/out")"
  case "$(cat "$work/out")" in
    "$4"*) echo "ok   $1: exit $status, \"$(cat "$work/out")\"" ;;
    *) fail "$1: stdout \"$(cat "$work/out")\" does not start with \"$4\"" ;;
  esac
}

make_loopback_rnic "$work/healthy/sys" "4: ACTIVE" yes
make_loopback_rnic "$work/down/sys" "1: DOWN" yes
make_loopback_rnic "$work/no-gid/sys" "4: ACTIVE" no
make_loopback_rnic "$work/down-and-no-gid/sys" "1: DOWN" no

expect_npd healthy "$work/healthy" 0 "RDMA network healthy"
expect_npd "warning only" "$work/down" 0 "warning port_not_active on mlx5_0/1: "
expect_npd critical "$work/no-gid" 1 "critical ipv4_without_roce_v2_gid on mlx5_0/1: lo has 127.0.0.1"
expect_npd "critical first" "$work/down-and-no-gid" 1 "critical ipv4_without_roce_v2_gid on mlx5_0/1"
expect_npd "no host root" "$work/absent" 2 "rocewatch diagnose could not run: "
echo "PASS: diagnose --npd"
