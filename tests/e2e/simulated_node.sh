# shellcheck shell=bash
# Sourced by end-to-end tests after monitoring_stack.sh: a simulated one-rail RoCE node for
# `rocewatch run`, in a network namespace of the test's own.
#   - sysfs: the fixture tree of `rocewatch-fixture rails 1` (mlx5_0 port 1 on ens1f0np0, IPv4
#     10.0.0.2/24, its RoCE v1/v2 GIDs at 2/3), edited in place the way the kernel changes it;
#   - netdevs: a veth pair in the namespace, ens1f0np0 (the RNIC) <-> rwpeer (the "switch"):
#     downing the peer drops the RNIC's carrier, as a real link flap does.
# The namespace is removed by the EXIT trap (e2e_cleanup); every process of the test (Prometheus,
# Alertmanager, the PagerDuty stand-in, the daemon) runs inside it, on its loopback.
#
#   sim_node_create [RAILS]    -> E2E_NETNS, SIM_SYSFS, SIM_HOST_ROOT (the fixture's host root:
#                              its sysfs and a procfs with no process; needs root and `ip netns`;
#                              else exit 77);
#                              rail R > 0: mlx5_R on ens<R+1>f0np0 <-> rwpeer<R>, 10.0.R.2/24,
#                              GIDs at 2/3 (`rocewatch-fixture rails RAILS`)
#   sim_node_start_daemon ARGS -> NODE_TARGET (rocewatch run on the fixture, in the namespace)
#   sim_daemon_sees_within S SERIES VALUE CMD...  runs CMD; how long until the daemon exports
#                              SERIES at VALUE (fails after S seconds)
#   sim_traffic_start          a job's RDMA traffic: the port's data counters advance (about
#                              2 GB/s) while DIR/traffic says "on"; the flap stops it while the
#                              carrier is down
#   sim_traffic_rails_start R...  a job's RDMA traffic on rails R (about 2 GB/s each, from the
#                              clock: every poll sees the same rate) while DIR/traffic.R says "on"
#   sim_traffic_stop_staggered S R...  the traffic of rails R stops, S seconds from one to the next
#   sim_flap_networkmanager    carrier down, address removed while a job holds its GIDs (the
#                              entries stay pending delete), carrier up, address re-added: the
#                              kernel puts the GIDs at the lowest free slots, 4/5
#   sim_flap_address_lost R    rail R: carrier down, address removed (its GIDs go), carrier up,
#                              and the address never comes back

SIM_NETDEV=ens1f0np0
SIM_PEER=rwpeer
SIM_ADDRESS=10.0.0.2/24
SIM_IPV4_GID=0000:0000:0000:0000:0000:ffff:0a00:0002
SIM_ZERO_GID=0000:0000:0000:0000:0000:0000:0000:0000

sim_node_create() {
  SIM_RAILS=${1:-1}
  [ "$(id -u)" = 0 ] || e2e_skip "needs root for a network namespace"
  command -v ip >/dev/null 2>&1 || e2e_skip "iproute2 is not installed"
  local fixture_tool
  fixture_tool="$(dirname "${ROCEWATCH_BINARY:?ROCEWATCH_BINARY must name the rocewatch binary}")/tests/rocewatch-fixture"
  [ -x "$fixture_tool" ] || e2e_fail "no fixture tool at $fixture_tool (build the rocewatch-fixture target)"
  E2E_NETNS="rocewatch-e2e-$$"
  ip netns add "$E2E_NETNS" 2>/dev/null || e2e_skip "cannot create a network namespace"
  E2E_CLEANUP_NETNS=$E2E_NETNS
  e2e_in_ns ip link set lo up
  e2e_in_ns ip link add "$SIM_NETDEV" type veth peer name "$SIM_PEER"
  e2e_in_ns ip link set "$SIM_NETDEV" address 0c:42:a1:5e:00:00
  e2e_in_ns ip link set "$SIM_PEER" up
  e2e_in_ns ip link set "$SIM_NETDEV" up
  e2e_in_ns ip addr add "$SIM_ADDRESS" dev "$SIM_NETDEV"
  local r
  for ((r = 1; r < SIM_RAILS; r++)); do
    e2e_in_ns ip link add "$(sim_rail_netdev "$r")" type veth peer name "$SIM_PEER$r"
    e2e_in_ns ip link set "$(sim_rail_netdev "$r")" address "0c:42:a1:5e:00:$(printf %02x "$r")"
    e2e_in_ns ip link set "$SIM_PEER$r" up
    e2e_in_ns ip link set "$(sim_rail_netdev "$r")" up
    e2e_in_ns ip addr add "10.0.$r.2/24" dev "$(sim_rail_netdev "$r")"
  done
  "$fixture_tool" rails "$SIM_RAILS" "$E2E_DIR/node" >/dev/null || e2e_fail "rocewatch-fixture"
  SIM_SYSFS="$E2E_DIR/node/sys"
  # The node's host root for the daemon and diagnose (--host-root): its sysfs and a procfs of
  # kthreadd alone (the host's process namespace: the scan sees every process, and none holds a
  # device) and a boot id, so that they judge this node alone, never the processes of the machine
  # running the test. A test adds its jobs with sim_fixture_job. The boot id is this boot's: the
  # daemon under test runs on it, and diagnose merges only the findings of a daemon of the same
  # boot.
  SIM_HOST_ROOT="$E2E_DIR/node"
  mkdir -p "$SIM_HOST_ROOT/proc/sys/kernel/random"
  cat /proc/sys/kernel/random/boot_id >"$SIM_HOST_ROOT/proc/sys/kernel/random/boot_id"
  sim_fixture_process 2 kthreadd 0 2129984 2 # PF_KTHREAD
  SIM_PORT="$SIM_SYSFS/class/infiniband/mlx5_0/ports/1"
  [ "$(cat "$SIM_PORT/gids/3")" = "$SIM_IPV4_GID" ] || e2e_fail "unexpected fixture: gids/3 is not $SIM_IPV4_GID"
}

sim_rail_netdev() { echo "ens$(($1 + 1))f0np0"; }

# sim_fixture_process PID COMM PPID FLAGS START: a process in the fixture's procfs, with the
# files the consumer scan reads first (procfs_consumer_scanner.h): comm, and a stat line of 52
# fields (9: flags, 22: start time in clock ticks).
sim_fixture_process() {
  local dir="$SIM_HOST_ROOT/proc/$1"
  mkdir -p "$dir/fd"
  echo "$2" >"$dir/comm"
  printf '%s (%s) S %s %s %s 0 -1 %s 0 0 0 0 0 0 0 0 20 0 1 0 %s%s\n' \
    "$1" "$2" "$3" "$1" "$1" "$4" "$5" "$(printf ' 0%.0s' {1..30})" >"$dir/stat"
}

# sim_fixture_job PID JOB RAIL...: python3 (PID) of Slurm job JOB in the fixture's procfs, as
# `rocewatch collect` records one: NCCL on the given rails at GID index 3, libnccl mapped, and
# the verbs node of each rail's device open (uverbsR of mlx5_R, made in the fixture's sysfs).
sim_fixture_job() {
  local pid=$1 job=$2 r fd=40 hcas=""
  shift 2
  local dir="$SIM_HOST_ROOT/proc/$pid"
  sim_fixture_process "$pid" python3 1 4194560 123456
  echo "0::/system.slice/slurmstepd.scope/job_$job/step_0/user/task_0" >"$dir/cgroup"
  for r in "$@"; do hcas+="${hcas:+,}mlx5_$r"; done
  printf '%s\0' PATH=/usr/bin "SLURM_JOB_ID=$job" "NCCL_IB_HCA=$hcas" NCCL_IB_GID_INDEX=3 \
    >"$dir/environ"
  echo "7f1c30000000-7f1c30200000 r-xp 00000000 fd:01 4242 /usr/lib/x86_64-linux-gnu/libnccl.so.2.18.3" \
    >"$dir/maps"
  ln -sf /dev/null "$dir/fd/0"
  for r in "$@"; do
    mkdir -p "$SIM_SYSFS/class/infiniband_verbs/uverbs$r"
    echo "mlx5_$r" >"$SIM_SYSFS/class/infiniband_verbs/uverbs$r/ibdev"
    ln -sf "/dev/infiniband/uverbs$r" "$dir/fd/$((fd++))"
  done
}

# sim_node_start_daemon ARGS...: `rocewatch run` on the fixture in the namespace.
sim_node_start_daemon() {
  local port
  port=$(e2e_free_port)
  NODE_TARGET="127.0.0.1:$port"
  e2e_start rocewatch "$ROCEWATCH_BINARY" run --host-root "$SIM_HOST_ROOT" --listen "$NODE_TARGET" \
    --state-file "$E2E_DIR/rocewatch-state.json" "$@"
  e2e_wait_until 30 "rocewatch /healthz" e2e_http_ok "http://$NODE_TARGET/healthz"
}

# sim_daemon_metric_is SERIES VALUE: whether the daemon (NODE_TARGET) exports SERIES at VALUE now
# ("" for absent); false when it does not answer.
sim_daemon_metric_is() {
  local exposition
  exposition=$(e2e_in_ns curl -fsS --max-time 2 "http://$NODE_TARGET/metrics" 2>/dev/null) || return 1
  [ "$(awk -v s="$1" 'index($0, s " ") == 1 { print $2 }' <<<"$exposition")" = "$2" ]
}

# sim_wait_daemon_sees WHAT SERIES VALUE: waits (at most 20 s) until the daemon exports SERIES at
# VALUE ("" for absent). A flap's steps wait for the daemon to have seen the step before, as a
# real flap lasts long enough for the kernel's events to arrive: the scenario holds however
# loaded the machine is, and takes no longer than the daemon needs.
sim_wait_daemon_sees() {
  e2e_wait_until 20 "the daemon to see $1" sim_daemon_metric_is "$2" "$3"
}

# sim_daemon_sees_within SECONDS SERIES VALUE COMMAND...: runs COMMAND (in the namespace), then
# polls the daemon's /metrics every 20 ms, in one process (a loaded machine adds no process start
# to the measurement), until it exports SERIES at VALUE. Prints the seconds from just before
# COMMAND; fails (status 1) when SECONDS pass first.
sim_daemon_sees_within() {
  e2e_in_ns python3 -c '
import subprocess, sys, time, urllib.request
url, bound, series, value, command = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
def exported():
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            lines = r.read().decode().splitlines()
    except OSError:
        return None
    return next((l[len(series) + 1:] for l in lines if l.startswith(series + " ")), "")
start = time.time()
subprocess.run(command, check=True)
while exported() != value:
    if time.time() - start > bound:
        print("%.2f" % (time.time() - start))
        sys.exit(1)
    time.sleep(0.02)
print("%.2f" % (time.time() - start))' "http://$NODE_TARGET/metrics" "$@"
}

# In-place writes, as the kernel changes an attribute: the daemon keeps sysfs descriptors open, so
# a file replaced by rename would never be read again. The value goes at offset 0 without
# truncating first (1<>), then the file is cut to its length: never an empty read.
sim_write() { printf '%s\n' "$2" 1<>"$1" && truncate -s $((${#2} + 1)) "$1"; }

# sim_gid_set INDEX GID TYPE_TEXT: a valid entry of the RNIC netdev.
sim_gid_set() {
  local attr
  for attr in types ndevs; do
    [ -d "$SIM_PORT/gid_attrs/$attr/$1" ] && rmdir "$SIM_PORT/gid_attrs/$attr/$1"
  done
  sim_write "$SIM_PORT/gid_attrs/types/$1" "$3"
  sim_write "$SIM_PORT/gid_attrs/ndevs/$1" "$SIM_NETDEV"
  sim_write "$SIM_PORT/gids/$1" "$2"
}

# sim_gid_clear INDEX: the slot reads as the zero GID and its attributes fail to read (the kernel:
# EINVAL; the fixture: a directory), as an empty or pending-delete slot does.
sim_gid_clear() {
  local attr
  sim_write "$SIM_PORT/gids/$1" "$SIM_ZERO_GID"
  for attr in types ndevs; do
    rm -f "$SIM_PORT/gid_attrs/$attr/$1"
    mkdir -p "$SIM_PORT/gid_attrs/$attr/$1"
  done
}

sim_port_state() {  # sim_port_state up|down
  if [ "$1" = up ]; then
    sim_write "$SIM_PORT/state" "4: ACTIVE"
    sim_write "$SIM_PORT/phys_state" "5: LinkUp"
  else
    sim_write "$SIM_PORT/state" "1: DOWN"
    sim_write "$SIM_PORT/phys_state" "3: Disabled"
  fi
}

sim_traffic_start() {
  sim_write "$E2E_DIR/traffic" on
  # port_xmit_data / port_rcv_data count 4-octet units: +125e6 every 0.5 s is 1 GB/s each way.
  e2e_start traffic bash -c '
    port=$1 switch=$2
    while true; do
      if [ "$(cat "$switch")" = on ]; then
        for counter in port_xmit_data port_rcv_data; do
          value=$(cat "$port/counters/$counter")
          printf "%s\n" $((value + 125000000)) 1<>"$port/counters/$counter"  # in place, growing
        done
      fi
      sleep 0.5
    done' traffic "$SIM_PORT" "$E2E_DIR/traffic"
}

# sim_traffic_rails_start RAIL...: a job's traffic on each RAIL (mlx5_RAIL port 1): its data
# counters advance by 1 GB/s each way, computed from the clock every 0.1 s (so that every 1 s poll
# sees the same rate, however the writer is scheduled), while $E2E_DIR/traffic.RAIL says "on";
# writing "off" there stops the rail within 0.1 s.
sim_traffic_rails_start() {
  local r
  for r in "$@"; do sim_write "$E2E_DIR/traffic.$r" on; done
  e2e_start traffic-rails python3 -c '
import os, sys, time
sysfs, control, rails = sys.argv[1], sys.argv[2], sys.argv[3:]
UNITS_PER_SECOND = 250e6  # 4-octet units: 1 GB/s
counters = {r: ["%s/class/infiniband/mlx5_%s/ports/1/counters/%s" % (sysfs, r, c)
                for c in ("port_xmit_data", "port_rcv_data")] for r in rails}
values = {path: int(open(path).read()) for paths in counters.values() for path in paths}
last = time.monotonic()
while True:
    time.sleep(0.1)
    now = time.monotonic()
    for r in rails:
        with open("%s/traffic.%s" % (control, r)) as f:
            if f.read().strip() != "on":
                continue
        for path in counters[r]:
            values[path] += int(UNITS_PER_SECOND * (now - last))
            fd = os.open(path, os.O_WRONLY)  # in place, growing: never an empty read
            try:
                os.pwrite(fd, b"%d\n" % values[path], 0)
            finally:
                os.close(fd)
    last = now' "$SIM_SYSFS" "$E2E_DIR" "$@"
}

# sim_traffic_stop_staggered SECONDS RAIL...: the traffic stops on each RAIL in turn, SECONDS after
# the one before (as a checkpoint reaches a job's rails one after the other), on a schedule kept by
# one process: a loaded machine delays no stop by starting another. Prints the Unix time of the
# last stop.
sim_traffic_stop_staggered() {
  python3 -c '
import sys, time
control, stagger, rails = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
first = time.time()
for i, r in enumerate(rails):
    time.sleep(max(0.0, first + i * stagger - time.time()))
    with open("%s/traffic.%s" % (control, r), "r+") as f:
        f.write("off\n")
        f.truncate()
print("%.3f" % time.time())' "$E2E_DIR" "$@"
}

sim_flap_networkmanager() {
  e2e_log "flap: carrier down (peer down), the job's traffic stops"
  e2e_in_ns ip link set "$SIM_PEER" down
  sim_port_state down
  sim_write "$E2E_DIR/traffic" off
  sim_wait_daemon_sees "the carrier loss" "rocewatch_netdev_carrier{netdev=\"$SIM_NETDEV\"}" 0
  e2e_log "NetworkManager removes $SIM_ADDRESS; a live job holds its GIDs: slots 2/3 pending delete"
  e2e_in_ns ip addr del "$SIM_ADDRESS" dev "$SIM_NETDEV"
  sim_gid_clear 2
  sim_gid_clear 3
  sim_wait_daemon_sees "the address removed" \
    "rocewatch_netdev_addresses{netdev=\"$SIM_NETDEV\",family=\"ipv4\"}" 0
  sim_wait_daemon_sees "the GIDs gone" "rocewatch_gid_info{device=\"mlx5_0\",port=\"1\",index=\"3\",gid=\"$SIM_IPV4_GID\",type=\"roce_v2\",netdev=\"$SIM_NETDEV\"}" ""
  e2e_log "carrier back (peer up)"
  e2e_in_ns ip link set "$SIM_PEER" up
  sim_port_state up
  sim_wait_daemon_sees "the carrier back" "rocewatch_netdev_carrier{netdev=\"$SIM_NETDEV\"}" 1
  e2e_log "NetworkManager re-adds $SIM_ADDRESS: its RoCE v1/v2 GIDs land at the lowest free slots, 4/5"
  e2e_in_ns ip addr add "$SIM_ADDRESS" dev "$SIM_NETDEV"
  sim_gid_set 4 "$SIM_IPV4_GID" "IB/RoCE v1"
  sim_gid_set 5 "$SIM_IPV4_GID" "RoCE v2"
  sim_write "$E2E_DIR/traffic" on
}

# sim_flap_address_lost RAIL: the rail's carrier drops, NetworkManager removes its address (no job
# holds its GIDs: the slots are freed), the carrier returns and the address never does.
sim_flap_address_lost() {
  local r=$1 netdev port
  netdev=$(sim_rail_netdev "$r")
  port="$SIM_SYSFS/class/infiniband/mlx5_$r/ports/1"
  e2e_log "rail $r: carrier down (peer down); NetworkManager removes 10.0.$r.2/24"
  e2e_in_ns ip link set "$SIM_PEER$r" down
  sim_write "$port/state" "1: DOWN"
  sim_write "$port/phys_state" "3: Disabled"
  sim_wait_daemon_sees "rail $r's carrier loss" "rocewatch_netdev_carrier{netdev=\"$netdev\"}" 0
  e2e_in_ns ip addr del "10.0.$r.2/24" dev "$netdev"
  SIM_PORT=$port sim_gid_clear 2
  SIM_PORT=$port sim_gid_clear 3
  sim_wait_daemon_sees "rail $r's address removed" \
    "rocewatch_netdev_addresses{netdev=\"$netdev\",family=\"ipv4\"}" 0
  e2e_log "rail $r: carrier back (peer up); the address does not come back"
  e2e_in_ns ip link set "$SIM_PEER$r" up
  sim_write "$port/state" "4: ACTIVE"
  sim_write "$port/phys_state" "5: LinkUp"
}
