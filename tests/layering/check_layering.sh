#!/usr/bin/env bash
# Proves that the build enforces the layers of lib/CMakeLists.txt: each probe (tests/layering/*.cc)
# is compiled with the include path of one lib/ folder and includes a header that folder must not
# see; the compile must fail on exactly that include. Usage: check_layering.sh BUILD_DIR
set -u
build=$1
status=0

probe() {
  local target=$1 header=$2 out
  if out=$(cmake --build "$build" --target "$target" 2>&1); then
    echo "FAIL: $target compiled: $header is visible, the layers are not enforced"
    status=1
  elif ! grep -q "$header: No such file or directory" <<<"$out"; then
    echo "FAIL: $target failed, but not on $header:"
    echo "$out"
    status=1
  else
    echo "ok: $target: $header is not on the include path"
  fi
}

probe layering_probe_netlink_includes_app app/monitor.h
probe layering_probe_sysfs_includes_netlink netlink/netdev_tracker.h
exit $status
