#!/usr/bin/env bash
# systemd/rocewatch.service, as `make install` installs it, passes `systemd-analyze verify` without
# a single warning, keeps the settings the daemon depends on, grants exactly CAP_NET_ADMIN and
# CAP_NET_RAW (the
# privilege table of docs/deploy.md), and scores an exposure of 1.8 or lower in
# `systemd-analyze security --offline=true`; with the job-awareness.conf drop-in it installs beside
# the docs it still verifies, adds exactly CAP_SYS_PTRACE, and scores 2.1 or lower.
source "$(dirname "$0")/deploy_lib.sh"
need_tool systemd-analyze "Debian package systemd"
build=$(build_dir)

# Installed under a real prefix (no DESTDIR) so that ExecStart names an existing binary.
cmake --install "$build" --prefix "$work/prefix" >/dev/null || fail "cmake --install failed"
unit="$work/prefix/lib/systemd/system/rocewatch.service"
[ -f "$unit" ] || fail "the unit was not installed at $unit"

out=$(systemd-analyze verify "$unit" 2>&1) || fail "systemd-analyze verify failed: $out"
[ -z "$out" ] || fail "systemd-analyze verify warns: $out"

for setting in "Type=notify" "WatchdogSec=" "NotifyAccess=main" "StateDirectory=rocewatch" \
  "DynamicUser=yes" "CapabilityBoundingSet=CAP_NET_ADMIN CAP_NET_RAW$" "AmbientCapabilities=CAP_NET_ADMIN CAP_NET_RAW$" \
  "PrivateUsers=no$" "RuntimeDirectory=rocewatch$" "DevicePolicy=closed" \
  "DeviceAllow=char-infiniband_verbs rw" "ProtectSystem=strict" "SystemCallFilter=@system-service" \
  "RestrictAddressFamilies=AF_NETLINK AF_UNIX AF_INET AF_INET6 AF_PACKET$" "ProtectProc=ptraceable$" \
  "ExecStart=$work/prefix/bin/rocewatch run "; do
  grep -q "^$setting" "$unit" || fail "the unit lacks $setting"
done
# The daemon watches the host's links: a private network namespace would blind it.
if grep -q "^PrivateNetwork=yes" "$unit"; then fail "PrivateNetwork= hides the host's netdevs"; fi

exposure() {  # UNIT LIMIT_TENTHS: prints the score, fails above the limit
  local report score
  report=$(systemd-analyze security --offline=true "$1" 2>&1) || true
  score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' <<<"$report")
  [ -n "$score" ] || fail "no exposure level in: $report"
  systemd-analyze security --offline=true --threshold="$2" "$1" >/dev/null ||
    fail "$(basename "$1"): exposure $score is above $(($2 / 10)).$(($2 % 10))"
  echo "$score"
}
score=$(exposure "$unit" 18)
echo "systemd-analyze security --offline=true: exposure $score"

# The drop-in, applied the way systemd applies it (its [Service] lines after the unit's).
dropin="$work/prefix/share/doc/rocewatch/job-awareness.conf"
[ -f "$dropin" ] || fail "job-awareness.conf was not installed at $dropin"
mkdir -p "$work/with-dropin"
cat "$unit" "$dropin" >"$work/with-dropin/rocewatch.service"
out=$(systemd-analyze verify "$work/with-dropin/rocewatch.service" 2>&1) || fail "with the drop-in: $out"
[ -z "$out" ] || fail "systemd-analyze verify warns with the drop-in: $out"
grep -vq '^\(#.*\|\[Service\]\|CapabilityBoundingSet=CAP_NET_ADMIN CAP_NET_RAW CAP_SYS_PTRACE\|AmbientCapabilities=CAP_NET_ADMIN CAP_NET_RAW CAP_SYS_PTRACE\|SystemCallFilter=~process_vm_readv process_vm_writev\|ReadOnlyPaths=/proc\)$' \
  "$dropin" && fail "job-awareness.conf grants more than CAP_SYS_PTRACE beside CAP_NET_ADMIN"
grep -q '^SystemCallFilter=~process_vm_readv process_vm_writev$' "$dropin" && grep -q '^ReadOnlyPaths=/proc$' "$dropin" ||
  fail "job-awareness.conf must close process_vm_writev and writes to /proc/<pid>/mem"
dropin_score=$(exposure "$work/with-dropin/rocewatch.service" 21)
echo "with job-awareness.conf: exposure $dropin_score"
echo "PASS: unit verified, exposure $score ($dropin_score with the job-awareness drop-in)"
