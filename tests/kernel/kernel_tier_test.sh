#!/usr/bin/env bash
# The kernel tier: the real rocewatch binary against a real RDMA stack. Builds a guest from
# Debian 12's packages (tests/kernel/guest/build_guest.sh: Debian's kernel, busybox, rdma-core,
# perftest), boots it under qemu with TCG (no KVM needed) and NO network device (-nic none), and
# runs every tests/kernel/*_scenario.sh inside it against soft-RoCE (rdma_rxe) on a veth pair.
# The guest reports over its serial console; this script prints each scenario's result, its
# notes (measured timings) and, for a failure, its log, then "N passed, N failed" alone on a line.
#
# Environment: ROCEWATCH_BINARY (default build/rocewatch), ROCEWATCH_KERNEL_TIER_DIR (guest
# build and download cache, default beside the binary: build/kernel-tier), ROCEWATCH_KERNEL_ONLY
# (comma-separated scenario names, e.g. gid_drift_holder), ROCEWATCH_KERNEL_TIMEOUT (seconds for
# the whole boot, default 170; qemu is killed past it), ROCEWATCH_KERNEL_VERBOSE=1 (the log of
# every scenario, not only of those that fail).
# Exit status: 0 all passed, 1 a failure (or the guest did not finish), 77 skipped (ctest
# SKIP_RETURN_CODE): no qemu, no libibverbs headers, or the Debian packages cannot be had.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWATCH_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
binary=${ROCEWATCH_BINARY:-$src/build/rocewatch}
out=${ROCEWATCH_KERNEL_TIER_DIR:-$(dirname "$binary")/kernel-tier}
bound=${ROCEWATCH_KERNEL_TIMEOUT:-170}
only=${ROCEWATCH_KERNEL_ONLY:-}
verbose=${ROCEWATCH_KERNEL_VERBOSE:-}

skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*"
  echo "0 passed, 1 failed"
  exit 1
}

begin=$SECONDS
command -v qemu-system-x86_64 >/dev/null 2>&1 ||
  skip "qemu-system-x86_64 is not installed (scripts/install-deps.sh kernel)"
qemu-system-x86_64 -accel help 2>/dev/null | grep -qx tcg || skip "this qemu has no TCG accelerator"
command -v cc >/dev/null 2>&1 || skip "no C compiler for the verbs helper (build-essential)"
[ -e /usr/include/infiniband/verbs.h ] || skip "no libibverbs headers (libibverbs-dev)"
[ -x "$binary" ] || fail "no rocewatch binary at $binary (build it first)"

mkdir -p "$out"
cc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$out/rw-kernel-qp" "$here/guest/rw_kernel_qp.c" -libverbs ||
  fail "the verbs helper (tests/kernel/guest/rw_kernel_qp.c) did not build"
status=0
"$here/guest/build_guest.sh" "$out" "$binary" "$out/rw-kernel-qp" || status=$?
[ "$status" -eq 77 ] && skip "the guest cannot be built here (above)"
[ "$status" -eq 0 ] || fail "building the guest failed (status $status)"
built=$SECONDS

console=$out/console.log
rm -f "$console"
status=0
timeout --kill-after=5 "$bound" qemu-system-x86_64 -accel tcg -nodefaults -nic none -m 2048 -smp 2 \
  -kernel "$out/vmlinuz" -initrd "$out/initramfs.cpio" \
  -append "console=ttyS0 panic=-1 quiet loglevel=3 kt.only=$only kt.verbose=$verbose" \
  -display none -monitor none -serial "file:$console" -no-reboot </dev/null || status=$?
booted=$SECONDS
tr -d '\r' <"$console" >"$console.txt"

grep -E '^KT (NOTE|RESULT|SKIP|INFO|FAIL|LOG)' "$console.txt" || true
boot=$(sed -n 's/^KT BOOT uptime=//p' "$console.txt")
echo "guest: built in $((built - begin)) s, up at ${boot:-?} s of guest time, ran $((booted - built)) s"
passed=$(grep -c '^KT RESULT PASS' "$console.txt" || true)
failed=$(grep -c '^KT RESULT FAIL' "$console.txt" || true)
if ! grep -q '^KT SUMMARY' "$console.txt"; then
  [ "$status" -eq 124 ] || [ "$status" -eq 137 ] && echo "FAIL: the guest ran past $bound s; qemu was killed"
  echo "FAIL: the guest did not finish (qemu status $status); its console ends:"
  tail -30 "$console.txt"
  failed=$((failed + 1))
fi
if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
  grep -q '^KT RESULT SKIP' "$console.txt" && skip "every scenario skipped"
  failed=1
  echo "FAIL: no scenario ran"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
