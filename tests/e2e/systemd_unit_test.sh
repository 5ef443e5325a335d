#!/usr/bin/env bash
# systemd/rocewatch.service, as `make install` installs it, passes `systemd-analyze verify` without
# a single warning, keeps the settings the daemon depends on, and scores an exposure of 2.0 or
# lower in `systemd-analyze security --offline=true`.
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
  "DynamicUser=yes" "CapabilityBoundingSet=$" "DevicePolicy=closed" \
  "DeviceAllow=char-infiniband_verbs rw" "ProtectSystem=strict" "SystemCallFilter=@system-service" \
  "RestrictAddressFamilies=AF_NETLINK AF_UNIX AF_INET AF_INET6$" \
  "ExecStart=$work/prefix/bin/rocewatch run "; do
  grep -q "^$setting" "$unit" || fail "the unit lacks $setting"
done
# The daemon watches the host's links: a private network namespace would blind it.
if grep -q "^PrivateNetwork=yes" "$unit"; then fail "PrivateNetwork= hides the host's netdevs"; fi

report=$(systemd-analyze security --offline=true "$unit" 2>&1) || true
score=$(sed -n 's/.*Overall exposure level for rocewatch.service: \([0-9.]*\).*/\1/p' <<<"$report")
[ -n "$score" ] || fail "no exposure level in: $report"
echo "systemd-analyze security --offline=true: exposure $score"
systemd-analyze security --offline=true --threshold=20 "$unit" >/dev/null ||
  fail "exposure $score is above 2.0"
echo "PASS: unit verified, exposure $score"
