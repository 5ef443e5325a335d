#!/usr/bin/env bash
# `rocewatch slurm-check` as the HealthCheckProgram of a real Slurm (Debian's slurmctld, slurmd,
# munge) on loopback: slurmd runs the check every 5 s with its cleared environment, through the
# wrapper deploy/slurm/rocewatch-slurm-check. On a host root whose GID moved under a job pinning
# NCCL_IB_GID_INDEX=3 the check drains node n1 with rocewatch's reason; once the host root heals
# it resumes n1, no earlier than the hold-down; it leaves a node drained by hand alone; it refuses
# to drain past the budget (two other nodes, declared without a slurmd, drained with a rocewatch
# reason); a daemon that does not answer, an scontrol that fails or hangs: a clear line and the
# node as it was. Needs root (slurmd runs health checks as root); skips without it.
source "$(dirname "$0")/deploy_lib.sh"
binary=${ROCEWATCH_BINARY:?ROCEWATCH_BINARY is not set}
[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd and its health check run as root)"
need_tool munged "Debian package munge"
need_tool slurmctld "Debian package slurmctld"
need_tool slurmd "Debian package slurmd"
need_tool scontrol "Debian package slurm-client"
need_tool python3 "Debian package python3"
fixture="$(build_dir)/tests/rocewatch-fixture"
[ -x "$fixture" ] || fail "rocewatch-fixture is not built ($fixture)"
scontrol_bin=$(command -v scontrol)
sinfo_bin=$(command -v sinfo)

pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

read -r ctld_port slurmd_port closed_port < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(3)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')

mkdir -p "$work"/{spool,state,log,run,rw}
chmod 755 "$work"
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
host="$work/host"
export SLURM_CONF="$work/slurm.conf"

# The wrapper slurm.conf names, as deploy/slurm ships it, with the test's settings in its
# defaults file.
cp "$src/deploy/slurm/rocewatch-slurm-check" "$work/rocewatch-slurm-check"
cat >"$work/rocewatch-slurm-check.env" <<ENV
ROCEWATCH_BINARY=$binary
ROCEWATCH_SLURM_CHECK_ARGS="--slurm-conf=$SLURM_CONF --host-root=$host --daemon=none --hold-down=10s --budget=2 --state-file=$work/rw/slurm-check.json --metrics-file=$work/rw/slurm-check.prom"
ROCEWATCH_SLURM_CHECK_LOG=$work/log/health-check.log
ENV
sed -i "s|^defaults=.*|defaults=$work/rocewatch-slurm-check.env|" "$work/rocewatch-slurm-check"
chmod 755 "$work/rocewatch-slurm-check"

cat >"$SLURM_CONF" <<CONF
ClusterName=rocewatch-e2e
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool/%n
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd-%n.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/linear
ReturnToService=2
HealthCheckProgram=$work/rocewatch-slurm-check
HealthCheckInterval=5
HealthCheckNodeState=ANY
NodeName=n1 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
NodeName=n[2-4] NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=gpu Nodes=n[1-4] Default=YES State=UP
CONF

"$fixture" example-8-rail "$host" >/dev/null  # mlx5_3's GID at 5, a job pins index 3

munged -S "$work/munge.sock" --key-file "$work/munge.key" -f --foreground \
  --pid-file "$work/run/munged.pid" --log-file "$work/log/munged.log" \
  --seed-file "$work/run/munge.seed" >"$work/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$work/munge.sock" ] && break; sleep 0.1; done
[ -S "$work/munge.sock" ] || fail "munged did not start: $(cat "$work/log/munged.log" 2>/dev/null)"
slurmctld -D -f "$SLURM_CONF" >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)

state_of() { "$scontrol_bin" --oneliner show node "$1" | sed -n 's/.* State=\([^ ]*\).*/\1/p'; }
reason_of() { "$scontrol_bin" --oneliner show node "$1" | sed -n 's/.* Reason=\(.*\) \[.*/\1/p'; }
wait_for() {  # SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.5 s
  local seconds=$1 what=$2 i
  shift 2
  for ((i = 0; i < seconds * 2; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  fail "after ${seconds}s: $what (n1: $(state_of n1) '$(reason_of n1)'; health-check log: $(tail -3 "$work/log/health-check.log" 2>/dev/null))"
}
# Replaces the host root's sys by a fixture's (written aside, then renamed in: a run never sees
# a half-written tree, at most no sys for an instant, which it reports and leaves the node).
swap_sys() {  # FIXTURE ARGS...
  rm -rf "$work/next"
  "$fixture" "$@" "$work/next" >/dev/null
  rm -rf "$host/sys"
  mv "$work/next/sys" "$host/sys"
}
drained_by_rocewatch() { [[ "$(state_of n1)" == *DRAIN* && "$(reason_of n1)" == rocewatch:* ]]; }
not_drained() {  # an scontrol that did not answer is no state
  local state
  state=$(state_of n1)
  [ -n "$state" ] && [[ "$state" != *DRAIN* ]]
}
log_has() { grep -q -- "$1" "$work/log/health-check.log"; }
log_count() { grep -c -- "$1" "$work/log/health-check.log" 2>/dev/null || true; }
more_lines() { [ "$(log_count "$1")" -ge "$2" ]; }  # PATTERN COUNT: at least COUNT lines match
# The health check acts on Slurm (scontrol), then logs and writes its metrics file: a test that
# sees the node's new state waits for the log line and the file too (a loaded machine widens the
# gap between them; seen failing with the resume not yet in the file).
metrics_has() { grep -q -- "$1" "$work/rw/slurm-check.prom" 2>/dev/null; }

wait_for 30 "slurmctld answers" "$scontrol_bin" ping
slurmd -D -N n1 -f "$SLURM_CONF" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)

# 1. The drift drains n1, by slurmd's own health-check run.
wait_for 40 "n1 drained by rocewatch" drained_by_rocewatch
expected_reason="rocewatch: nccl_gid_index_without_roce_v2_gid pid 4242 (python3)"
[ "$(reason_of n1)" = "$expected_reason" ] || fail "reason '$(reason_of n1)', expected '$expected_reason'"
wait_for 30 "the drain's evidence logged" \
  log_has "node n1: drain (Reason=\"$expected_reason\"): .*mlx5_3/1 index 3 is empty"
wait_for 30 "the drain counted in the metrics file" \
  metrics_has 'rocewatch_remediation_actions_total{action="drain",reason="nccl_gid_index_without_roce_v2_gid"} 1'
echo "ok   drift drains n1: Reason=$(reason_of n1)"

# 2. Idempotent: later runs keep it drained and count nothing more.
keeps=$(log_count keep_drained)
wait_for 60 "another health-check run" more_lines keep_drained $((keeps + 1))
grep -q 'reason="nccl_gid_index_without_roce_v2_gid"} 1' "$work/rw/slurm-check.prom" ||
  fail "a second run counted again: $(cat "$work/rw/slurm-check.prom")"
echo "ok   later runs keep n1 drained, one drain counted"

# 3. The host root heals: n1 resumes, after the 10 s hold-down.
swap_sys rails 8
healed=$(date +%s)
wait_for 40 "n1 resumed" not_drained
resumed=$(date +%s)
[ $((resumed - healed)) -ge 10 ] ||
  fail "resumed $((resumed - healed)) s after healing: the hold-down is 10 s; log: $(tail -4 "$work/log/health-check.log")"
wait_for 30 "the hold-down line" log_has "node n1: hold_down: clear for"
wait_for 30 "the resume counted in the metrics file" \
  metrics_has 'rocewatch_remediation_actions_total{action="resume",reason="findings_clear"} 1'
echo "ok   healed host resumes n1 after $((resumed - healed)) s (hold-down 10 s)"

# 4. A node drained by hand is left alone, drift or not.
"$scontrol_bin" update NodeName=n1 State=DRAIN Reason="admin: replacing DIMM"
swap_sys example-8-rail
leaves=$(log_count leave_foreign_drain)
wait_for 60 "two health-check runs" more_lines leave_foreign_drain $((leaves + 2))
[ "$(reason_of n1)" = "admin: replacing DIMM" ] || fail "hand drain reason became '$(reason_of n1)'"
"$scontrol_bin" update NodeName=n1 State=RESUME
echo "ok   a node drained by hand keeps its reason"

# 5. The budget: two other nodes drained by rocewatch, n1 drifted: refused, a fabric problem.
"$scontrol_bin" update NodeName=n2 State=DRAIN Reason="rocewatch: traffic_collapsed mlx5_0/1"
"$scontrol_bin" update NodeName=n3 State=DRAIN Reason="rocewatch: traffic_collapsed mlx5_0/1"
refusals=$(log_count "node n1: refuse")
wait_for 60 "a refusal" more_lines "node n1: refuse" $((refusals + 1))
not_drained || fail "n1 was drained past the budget"
wait_for 30 "the refusal's reason logged" \
  log_has "2 other node(s) of 4 are already drained by rocewatch (budget 2)"
wait_for 30 "the fabric problem in the metrics file" \
  metrics_has 'rocewatch_remediation_fabric_problem{node="n1"} 1'
echo "ok   past the budget n1 stays in service and a fabric problem is reported"

# 6. By hand, with failures: a daemon that does not answer, an scontrol that fails, one that hangs
# (n1 drained by hand first, so that slurmd's own runs leave it alone meanwhile).
"$scontrol_bin" update NodeName=n1 State=DRAIN Reason="admin: maintenance"
run_check() {  # EXPECTED_STATUS ARGS...: a manual run of the check, own record and metrics
  local expected=$1 status=0
  shift
  "$binary" slurm-check --node=n1 --slurm-conf="$SLURM_CONF" --host-root="$host" \
    --state-file="$work/manual.json" --metrics-file="$work/manual.prom" --dry-run "$@" \
    >"$work/manual.out" 2>&1 || status=$?
  [ "$status" -eq "$expected" ] || fail "slurm-check $*: exit $status, expected $expected: $(cat "$work/manual.out")"
}
run_check 0 --daemon="http://127.0.0.1:$closed_port"
grep -q "no rocewatch daemon answered at http://127.0.0.1:$closed_port" "$work/manual.out" ||
  fail "no line for the silent daemon: $(cat "$work/manual.out")"
grep -q "deciding on this run's one-shot checks" "$work/manual.out" &&
  grep -q "leave_foreign_drain" "$work/manual.out" ||
  fail "one-shot checks did not decide: $(cat "$work/manual.out")"
echo "ok   a daemon that does not answer: $(head -1 "$work/manual.out")"

printf '#!/bin/sh\necho "slurm_load_node error: Unable to contact slurm controller" >&2\nexit 1\n' >"$work/failing-scontrol"
printf '#!/bin/sh\nexec sleep 60\n' >"$work/hanging-scontrol"
chmod 755 "$work/failing-scontrol" "$work/hanging-scontrol"
before="$(state_of n1) $(reason_of n1)"
run_check 2 --daemon=none --scontrol="$work/failing-scontrol"
grep -q "cannot read the node's Slurm state (.*exited with status 1: slurm_load_node error: Unable to contact slurm controller): the node is left as it was" \
  "$work/manual.out" || fail "failing scontrol: $(cat "$work/manual.out")"
echo "ok   a failing scontrol: $(cat "$work/manual.out")"
start=$(date +%s)
run_check 2 --daemon=none --scontrol="$work/hanging-scontrol" --call-timeout=1s
[ $(($(date +%s) - start)) -le 5 ] || fail "a hanging scontrol held the check for $(($(date +%s) - start)) s"
grep -q "timed out after 1s (killed)): the node is left as it was" "$work/manual.out" ||
  fail "hanging scontrol: $(cat "$work/manual.out")"
echo "ok   a hanging scontrol: $(cat "$work/manual.out")"
[ "$(state_of n1) $(reason_of n1)" = "$before" ] || fail "n1 changed: $before -> $(state_of n1) $(reason_of n1)"
echo "PASS: slurm-check against a real Slurm"
