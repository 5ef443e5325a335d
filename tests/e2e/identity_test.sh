#!/usr/bin/env bash
# The privilege table of docs/deploy.md ("Privileges, measured"), enforced: `rocewatch run` and
# `rocewatch diagnose` run under exactly the identities rocewatch ships with (setpriv: uid, gid,
# no supplementary groups, and the bounding, inheritable and ambient sets cut to the listed
# capabilities), against a veth rail in a network namespace of the test's own, a fixture sysfs, a
# kubelet pod-resources socket created the way the kubelet creates it (root, 0755) and a job running
# as root with the default capabilities of a container. Each datum is read, or reported as not
# permitted with the capability it needs named:
#   daemonset      the rendered base DaemonSet's runAsUser/runAsGroup and capabilities.add
#   job-awareness  the same with the job-awareness component rendered in
#   systemd        the unit's AmbientCapabilities= for a dynamic uid, its state directory its own
#   none           uid 65532 without any capability (the identity rocewatch shipped before)
source "$(dirname "$0")/monitoring_stack.sh"
source "$(dirname "$0")/simulated_node.sh"

e2e_require_commands setpriv kubectl python3 curl
python3 -c 'import yaml' 2>/dev/null || e2e_skip "python3-yaml is not installed (scripts/install-deps.sh e2e)"
e2e_setup 300
src=$E2E_SOURCE_DIR
sim_node_create 1
build_tests="$(dirname "$ROCEWATCH_BINARY")/tests"
# The identities without uid 0 must be able to run it wherever the build tree lives.
mkdir -p "$E2E_DIR/bin"
cp "$ROCEWATCH_BINARY" "$(dirname "$ROCEWATCH_BINARY")"/librocewatch-kubelet.so "$E2E_DIR/bin/" 2>/dev/null ||
  cp "$ROCEWATCH_BINARY" "$E2E_DIR/bin/"
chmod 0755 "$E2E_DIR/bin" "$E2E_DIR/bin/"*
ROCEWATCH_BINARY="$E2E_DIR/bin/rocewatch"
[ -x "$build_tests/rocewatch-fake-kubelet" ] || e2e_fail "no rocewatch-fake-kubelet in $build_tests"

# The kubelet's socket: root-owned, mode 0755 (a gRPC server's unix listener under umask 022).
mkdir -p "$E2E_DIR/kubelet"
(umask 022 && exec "$build_tests/rocewatch-fake-kubelet" "$E2E_DIR/kubelet/kubelet.sock") \
  >"$E2E_DIR/fake-kubelet.log" 2>&1 &
E2E_PIDS+=($!)
e2e_wait_until 20 "the fake kubelet's socket" test -S "$E2E_DIR/kubelet/kubelet.sock"
# A job: root, with a container runtime's default capabilities, and NCCL settings to be read.
job_caps=-all,+chown,+dac_override,+fowner,+fsetid,+kill,+setgid,+setuid,+setpcap,+net_bind_service,+net_raw,+sys_chroot,+mknod,+audit_write,+setfcap
setpriv --bounding-set="$job_caps" --inh-caps=-all -- env -i NCCL_IB_TIMEOUT=22 NCCL_IB_GID_INDEX=3 \
  sleep 600 >/dev/null 2>&1 &
job_pid=$!
E2E_PIDS+=("$job_pid")

# identity_of KUSTOMIZATION: "UID GID CAP,CAP" of the rendered DaemonSet's rocewatch container.
identity_of() {
  kubectl kustomize "$1" | python3 -c '
import sys, yaml
ds = next(o for o in yaml.safe_load_all(sys.stdin) if o and o.get("kind") == "DaemonSet")
pod = ds["spec"]["template"]["spec"]
c = next(c for c in pod["containers"] if c["name"] == "rocewatch")
sc = {**pod.get("securityContext", {}), **c.get("securityContext", {})}
caps = sc.get("capabilities", {})
assert "ALL" in caps.get("drop", []), "the container must drop ALL capabilities"
print(sc["runAsUser"], sc["runAsGroup"], ",".join(caps.get("add", [])) or "-")'
}
mkdir -p "$E2E_DIR/k/ja"
# kustomize takes relative paths only.
printf 'resources:\n  - %s\ncomponents:\n  - %s\n' \
  "$(realpath --relative-to="$E2E_DIR/k/ja" "$src/deploy/kubernetes/base")" \
  "$(realpath --relative-to="$E2E_DIR/k/ja" "$src/deploy/kubernetes/components/job-awareness")" \
  >"$E2E_DIR/k/ja/kustomization.yaml"
read -r ds_uid ds_gid ds_caps <<<"$(identity_of "$src/deploy/kubernetes/base")"
read -r ja_uid ja_gid ja_caps <<<"$(identity_of "$E2E_DIR/k/ja")"
unit_caps=$(sed -n 's/^AmbientCapabilities=//p' "$src/systemd/rocewatch.service" | sed 's/CAP_//g')
[ "$(sed -n 's/^CapabilityBoundingSet=//p' "$src/systemd/rocewatch.service" | sed 's/CAP_//g')" = "$unit_caps" ] ||
  e2e_fail "the unit's CapabilityBoundingSet= and AmbientCapabilities= differ"
e2e_log "DaemonSet: uid $ds_uid gid $ds_gid caps $ds_caps; with job-awareness: $ja_caps; systemd: $unit_caps"

# setpriv arguments for UID GID CAPS (CAPS: NAME,NAME or -).
setpriv_args() {
  local set=-all cap
  if [ "$3" != - ]; then
    for cap in ${3//,/ }; do set+=",+$(tr 'A-Z' 'a-z' <<<"$cap")"; done
  fi
  echo "--reuid=$1 --regid=$2 --clear-groups --bounding-set=$set --inh-caps=$set --ambient-caps=$set"
}

polls_at_least() {  # TARGET N
  local count
  count=$(e2e_in_ns curl -fsS --max-time 2 "http://$1/metrics" 2>/dev/null |
    sed -n 's/^rocewatch_poll_duration_seconds_count \([0-9]*\).*/\1/p')
  [ -n "$count" ] && [ "$count" -ge "$2" ]
}

# run_as NAME UID GID CAPS: the daemon under that identity, its state directory owned as the
# deployment makes it (root 0755 by the kubelet; the unit's own by StateDirectory=); then
# diagnose under the same identity. Leaves $E2E_DIR/NAME.{metrics,findings,log,diagnose.json}.
run_as() {
  local name=$1 uid=$2 gid=$3 caps=$4 state_owner=$5 port
  # shellcheck disable=SC2207
  local args=($(setpriv_args "$uid" "$gid" "$caps"))
  mkdir -p "$E2E_DIR/state-$name" && chown "$state_owner" "$E2E_DIR/state-$name" && chmod 0755 "$E2E_DIR/state-$name"
  chmod 0755 "$E2E_DIR"
  port=$(e2e_free_port)
  local common=(--sysfs-root "$SIM_SYSFS" --kubelet-socket "$E2E_DIR/kubelet/kubelet.sock")
  e2e_start "$name" setpriv "${args[@]}" -- "$ROCEWATCH_BINARY" run "${common[@]}" \
    --listen "127.0.0.1:$port" --state-file "$E2E_DIR/state-$name/state.json" --optics-interval 1s \
    --api-socket "$E2E_DIR/state-$name/api.sock"
  local pid=${E2E_PIDS[-1]}
  e2e_wait_until 30 "rocewatch ($name) /healthz" e2e_http_ok "http://127.0.0.1:$port/healthz"
  # Optics are read at most one module per poll, the first one at the first poll; the state is
  # written after a poll: three polls have seen every datum.
  e2e_wait_until 30 "three polls ($name)" polls_at_least "127.0.0.1:$port" 3
  e2e_in_ns curl -fsS "http://127.0.0.1:$port/metrics" >"$E2E_DIR/$name.metrics"
  e2e_in_ns curl -fsS "http://127.0.0.1:$port/api/v1/findings" >"$E2E_DIR/$name.findings"
  kill "$pid"
  e2e_in_ns setpriv "${args[@]}" -- "$ROCEWATCH_BINARY" diagnose --json --daemon none "${common[@]}" \
    >"$E2E_DIR/$name.diagnose.json" 2>"$E2E_DIR/$name.diagnose.log" || true
}

# check NAME DATUM EXPECTATION PYTHON-EXPRESSION: m(series) is a sample of NAME's /metrics (None
# if absent), f(check) the daemon's finding of that check (or None), d(check) diagnose's, d_of(check,
# pid) diagnose's about that process, log the daemon's log text.
failures=0
check() {
  local name=$1 datum=$2 expectation=$3 expression=$4
  if python3 - "$E2E_DIR" "$name" "$expression" <<'PY'; then
import json, re, sys
work, name, expression = sys.argv[1:]
metrics = open(f"{work}/{name}.metrics").read()
log = open(f"{work}/{name}.log").read()
findings = json.load(open(f"{work}/{name}.findings"))["findings"]
diagnose = json.load(open(f"{work}/{name}.diagnose.json"))["findings"]
def m(series):
    for line in metrics.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return None
def f(check):
    return next((x for x in findings if x["check"] == check), None)
def d(check):
    return next((x for x in diagnose if x["check"] == check), None)
def d_of(check, pid):  # diagnose's finding of that check about this process (other processes of
    # the machine running the test may carry NCCL settings too: never judged here)
    return next((x for x in diagnose if x["check"] == check and f"pid {pid} " in x["subject"] + " "), None)
sys.exit(0 if eval(expression) else 1)
PY
    printf '  %-14s %-34s %s\n' "$name" "$datum" "ok: $expectation"
  else
    printf '  %-14s %-34s %s\n' "$name" "$datum" "FAILED: expected $expectation" >&2
    failures=$((failures + 1))
  fi
}

run_as daemonset "$ds_uid" "$ds_gid" "$ds_caps" root
run_as job-awareness "$ja_uid" "$ja_gid" "$ja_caps" root
run_as systemd 61184 61184 "${unit_caps:--}" 61184
run_as none 65532 65532 - root

netdev=$SIM_NETDEV
for who in daemonset job-awareness systemd none; do
  check "$who" "rtnetlink (links, addresses)" "read" \
    "m('rocewatch_netdev_carrier{netdev=\"$netdev\"}') == 1 and m('rocewatch_netdev_addresses{netdev=\"$netdev\",family=\"ipv4\"}') == 1"
  check "$who" "sysfs GID table" "read" \
    "m('rocewatch_gid_info{device=\"mlx5_0\",port=\"1\",index=\"3\",gid=\"$SIM_IPV4_GID\",type=\"roce_v2\",netdev=\"$netdev\"}') == 1"
  check "$who" "ethtool statistics (GSTATS)" "read" \
    "m('rocewatch_netdev_ethtool_supported{netdev=\"$netdev\",request=\"statistics\"}') == 1"
  check "$who" "ethtool netlink link state" "read" \
    "m('rocewatch_netdev_ethtool_supported{netdev=\"$netdev\",request=\"link_state\"}') == 1"
  # DCB GET is unprivileged: a veth has no DCB, which is an answer (no series), not a failure.
  check "$who" "DCB PFC (RTM_GETDCB)" "answered (no DCB on veth)" \
    "m('rocewatch_source_errors_total{source=\"dcb\"}') is None and m('rocewatch_netdev_pfc_enabled{netdev=\"$netdev\",priority=\"3\"}') is None"
done
# Module EEPROM: admin-only in the kernel. With CAP_NET_ADMIN the request reaches the driver, which
# on veth has no module (EOPNOTSUPP: no series, no finding); without it the kernel refuses it.
for who in daemonset job-awareness systemd; do
  check "$who" "module EEPROM (optics)" "reaches the driver" \
    "f('optics_not_permitted') is None and m('rocewatch_module_read_success{netdev=\"$netdev\"}') is None"
done
check none "module EEPROM (optics)" "not permitted, CAP_NET_ADMIN named" \
  "f('optics_not_permitted') is not None and 'CAP_NET_ADMIN' in f('optics_not_permitted')['message'] and 'CAP_NET_ADMIN' in log"
# LLDP: a receive-only AF_PACKET socket per RoCE port netdev needs CAP_NET_RAW.
for who in daemonset job-awareness systemd; do
  check "$who" "LLDP receive socket (AF_PACKET)" "opened" "m('rocewatch_lldp_receiving{netdev=\"$netdev\"}') == 1"
done
check none "LLDP receive socket (AF_PACKET)" "not permitted, CAP_NET_RAW named" \
  "m('rocewatch_lldp_receiving{netdev=\"$netdev\"}') == 0 and 'CAP_NET_RAW' in log"
# The kubelet's socket: connecting needs write permission on it, which its owner (root) has.
for who in daemonset job-awareness; do
  check "$who" "kubelet pod-resources socket" "connects" "m('rocewatch_consumer_source_up{source=\"kubelet\"}') == 1"
done
check none "kubelet pod-resources socket" "not permitted, said in the log" \
  "m('rocewatch_consumer_source_up{source=\"kubelet\"}') == 0 and 'Permission denied' in log"
# /proc/<pid>/environ and fd of a job that holds capabilities the reader lacks: CAP_SYS_PTRACE.
check job-awareness "/proc/<pid>/environ of a root job" "read" \
  "d_of('nccl_timeout_default', $job_pid) is not None"
for who in daemonset systemd none; do
  check "$who" "/proc/<pid>/environ of a root job" "not permitted, CAP_SYS_PTRACE named" \
    "d_of('nccl_timeout_default', $job_pid) is None and 'CAP_SYS_PTRACE' in d('nccl_environment_unreadable')['remedy']"
done
# The state file: the directory as each deployment creates it.
for who in daemonset job-awareness systemd; do
  check "$who" "state file" "written" "m('rocewatch_state_persistence_ok') == 1"
done
check none "state file (root-owned directory)" "not permitted, said in the log" \
  "m('rocewatch_state_persistence_ok') == 0 and 'Permission denied' in log"

[ "$failures" -eq 0 ] || e2e_fail "$failures datum/identity pair(s) differ from the privilege table"
echo "PASS: every datum is read, or refused with the capability named, under each shipped identity"
