#!/usr/bin/env bash
# Proves that the build enforces the layers of lib/CMakeLists.txt: each probe (tests/layering/*.cc)
# is compiled with the include path of one lib/ folder and includes a header that folder must not
# see; the compile must fail on exactly that include. An include of a path with "../" would reach
# a room through the including file's own directory, past the include path: no file under lib/ may
# have one. Usage: check_layering.sh BUILD_DIR [LIB_DIR]
set -u
build=$1
lib=${2:-$(dirname "$0")/../../lib}
status=0

if escapes=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]([^">]*/)?\.\./' \
    --include='*.h' --include='*.cc' "$lib"); then
  echo "FAIL: includes that climb out of their room with ../ (include the room by name instead):"
  echo "$escapes"
  status=1
else
  echo "ok: no include under $lib climbs out with ../"
fi

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

probe layering_probe_netlink_includes_app daemon/monitor.h
probe layering_probe_sysfs_includes_netlink netlink/netdev_tracker.h
probe layering_probe_traffic_includes_gid_drift gid_drift/gid_drift_detector.h
exit $status
