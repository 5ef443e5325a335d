#!/usr/bin/env bash
# `make install PREFIX=... DESTDIR=...` installs the binary, its kubelet module, the systemd unit (ExecStart pointing at
# the installed binary) and the docs, all under DESTDIR and nowhere else.
source "$(dirname "$0")/deploy_lib.sh"
need_tool make "Debian package make"
build=$(build_dir)
destdir="$work/destdir"
# A prefix that exists nowhere, so that anything written outside DESTDIR is seen.
prefix="/opt/rocewatch-install-test.$$"
[ ! -e "$prefix" ] || fail "$prefix exists already"

make -s -C "$src" install BUILD="$build" JOBS=2 PREFIX="$prefix" DESTDIR="$destdir" \
  >"$work/install.log" 2>&1 ||
  fail "make install failed: $(tail -5 "$work/install.log")"

root="$destdir$prefix"
[ -x "$root/bin/rocewatch" ] || fail "no executable $root/bin/rocewatch"
"$root/bin/rocewatch" version >/dev/null || fail "the installed binary does not run"
# The kubelet module where the installed binary looks for it (../lib/rocewatch from its directory).
[ -f "$root/lib/rocewatch/librocewatch-kubelet.so" ] || fail "no kubelet module in $root/lib/rocewatch"
unit="$root/lib/systemd/system/rocewatch.service"
[ -f "$unit" ] || fail "no unit at $unit"
grep -q "^ExecStart=$prefix/bin/rocewatch run " "$unit" || fail "ExecStart does not name $prefix/bin"
if grep -q "/usr/local/" "$unit"; then fail "the unit still names /usr/local"; fi
for doc in "$src"/docs/*.md; do
  [ -f "$root/share/doc/rocewatch/$(basename "$doc")" ] || fail "docs/$(basename "$doc") was not installed"
done
[ ! -e "$prefix" ] || fail "make install wrote to $prefix, outside DESTDIR"
# The install manifest (what `xargs rm` uninstalls) lists exactly the files under DESTDIR.
diff <(sed "s|^|$destdir|" "$build/install_manifest.txt" | sort) <(find "$destdir" -type f | sort) ||
  fail "install_manifest.txt and the installed files differ"
echo "PASS: make install put $(grep -c '' "$build/install_manifest.txt") files under DESTDIR, none elsewhere"
