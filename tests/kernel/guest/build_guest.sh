#!/usr/bin/env bash
# Builds the kernel tier's guest: Debian 12's own kernel and a busybox initramfs holding the
# soft-RoCE modules, rdma-core's userspace, the real rocewatch binary and the scenarios.
#   tests/kernel/guest/build_guest.sh OUT ROCEWATCH_BINARY QP_HELPER
# Writes OUT/vmlinuz and OUT/initramfs.cpio. Every package comes from the Debian archive through
# `apt-get download` and is unpacked with `dpkg -x` (no dpkg database, no lock); the downloads
# and the unpacked trees are cached in OUT/cache, keyed by the package file, so a warm rebuild
# downloads nothing and unpacks nothing. `ip` and `rdma` (iproute2) are the host's. The libraries
# of every guest binary are what `ldd` resolves, packaged ones first.
# Exit status: 0 built, 77 the packages cannot be had here (the reason on stderr), 1 a failure.
set -euo pipefail

out=${1:?usage: build_guest.sh OUT ROCEWATCH_BINARY QP_HELPER}
rocewatch=${2:?rocewatch binary}
qp_helper=${3:?QP helper binary}
here=$(cd "$(dirname "$0")" && pwd)
tier=$(dirname "$here")
cache=$out/cache
root=$out/root
mkdir -p "$cache/debs" "$cache/unpacked"

skip() { echo "build_guest: SKIP: $*" >&2; exit 77; }

for tool in apt-get apt-cache dpkg cpio ldd strip ip rdma; do
  command -v "$tool" >/dev/null 2>&1 || skip "no $tool on this host (scripts/install-deps.sh kernel)"
done

# The kernel is the one linux-image-amd64 depends on: linux-image-6.1.0-N-amd64.
kernel_pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
  sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)
[ -n "$kernel_pkg" ] || skip "apt knows no linux-image-amd64 (apt-get update, Debian 12 archive)"
packages=("$kernel_pkg" busybox-static libibverbs1 ibverbs-providers ibverbs-utils perftest
  librdmacm1 libibumad3 libpci3 libnl-3-200 libnl-route-3-200 jq libjq1 libonig5)

# One .deb per package in the cache, of the candidate version.
debs=()
missing=()
for pkg in "${packages[@]}"; do
  version=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
  [ -n "$version" ] && [ "$version" != "(none)" ] || skip "apt has no candidate for $pkg"
  file=$(ls "$cache/debs/${pkg}_"*"${version#*:}_amd64.deb" 2>/dev/null | head -1 || true)
  if [ -z "$file" ]; then missing+=("$pkg=$version"); else debs+=("$file"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "build_guest: downloading ${missing[*]}" >&2
  (cd "$cache/debs" && apt-get download -q "${missing[@]}" >"$cache/download.log" 2>&1) ||
    skip "apt-get download failed (no Debian archive?): $(tail -1 "$cache/download.log")"
  exec "$0" "$@"  # again, now from the cache
fi

# Unpacked once per package file.
unpacked=()
for deb in "${debs[@]}"; do
  dir=$cache/unpacked/$(basename "$deb" .deb)
  if [ ! -e "$dir/.done" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    dpkg -x "$deb" "$dir"
    touch "$dir/.done"
  fi
  unpacked+=("$dir")
done
kdir=$cache/unpacked/$(basename "$(ls "$cache/debs/${kernel_pkg}_"*.deb | head -1)" .deb)
kversion=$(ls "$kdir/lib/modules" | head -1)
busybox=$(ls "$cache"/unpacked/busybox-static_*/bin/busybox | head -1)
# modules.dep of the whole kernel, once (the package's postinst would make it).
[ -e "$kdir/lib/modules/$kversion/modules.dep" ] || "$busybox" depmod -b "$kdir" "$kversion"

rm -rf "$root"
mkdir -p "$root"/usr/{bin,sbin,lib/x86_64-linux-gnu,lib64} "$root"/{proc,sys,dev,tmp,run,etc,kt}
for link in bin sbin lib lib64; do ln -s "usr/$link" "$root/$link"; done

# Modules: the soft-RoCE stack, veth and 8021q (VLAN uppers), with what modules.dep lists.
wanted=(veth crc32_generic rdma_rxe ib_uverbs rdma_ucm 8021q)
moddep=$kdir/lib/modules/$kversion/modules.dep
declare -A seen=()
queue=()
for name in "${wanted[@]}"; do
  path=$(grep -E "(^|/)${name}\.ko:" "$moddep" | cut -d: -f1)
  [ -n "$path" ] || { echo "build_guest: no module $name in $kernel_pkg" >&2; exit 1; }
  queue+=("$path")
done
while [ ${#queue[@]} -gt 0 ]; do
  path=${queue[0]}
  queue=("${queue[@]:1}")
  [ -n "${seen[$path]:-}" ] && continue
  seen[$path]=1
  mkdir -p "$root/usr/lib/modules/$kversion/$(dirname "$path")"
  cp "$kdir/lib/modules/$kversion/$path" "$root/usr/lib/modules/$kversion/$path"
  for dep in $(grep -E "^${path}:" "$moddep" | cut -d: -f2-); do queue+=("$dep"); done
done
cp "$kdir/lib/modules/$kversion/modules.builtin" "$kdir/lib/modules/$kversion/modules.order" \
  "$root/usr/lib/modules/$kversion/"
"$busybox" depmod -b "$root" "$kversion"
printf '%s\n' "${wanted[@]}" >"$root/kt/modules"

# Binaries: packaged ones from their unpacked trees, iproute2 from the host, ours stripped.
find_unpacked() {
  local found
  for dir in "${unpacked[@]}"; do
    found=$(ls "$dir"/usr/bin/"$1" "$dir"/usr/sbin/"$1" "$dir"/bin/"$1" 2>/dev/null | head -1 || true)
    [ -n "$found" ] && { echo "$found"; return 0; }
  done
  echo "build_guest: no $1 in the packages" >&2
  return 1
}
cp "$busybox" "$root/usr/bin/busybox"
binaries=()
for tool in ibv_devinfo ibv_rc_pingpong ib_send_bw jq; do
  cp "$(find_unpacked "$tool")" "$root/usr/bin/$tool"
  binaries+=("$root/usr/bin/$tool")
done
for tool in ip rdma; do
  cp "$(command -v "$tool")" "$root/usr/sbin/$tool"
  binaries+=("$root/usr/sbin/$tool")
done
strip -o "$root/usr/bin/rocewatch" "$rocewatch"
cp "$qp_helper" "$root/usr/bin/rw-kernel-qp"
binaries+=("$root/usr/bin/rocewatch" "$root/usr/bin/rw-kernel-qp")

# rdma-core's provider of rxe, and its driver file, from ibverbs-providers.
providers=$(ls -d "$cache"/unpacked/ibverbs-providers_*)
mkdir -p "$root/usr/lib/x86_64-linux-gnu/libibverbs" "$root/etc/libibverbs.d"
cp "$providers"/usr/lib/x86_64-linux-gnu/libibverbs/librxe-* "$root/usr/lib/x86_64-linux-gnu/libibverbs/"
cp "$providers"/etc/libibverbs.d/rxe.driver "$root/etc/libibverbs.d/"
binaries+=("$root"/usr/lib/x86_64-linux-gnu/libibverbs/librxe-*)

# Libraries by ldd, the packaged copy where a package has it.
libpath=""
for dir in "${unpacked[@]}"; do
  for sub in usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu; do
    [ -d "$dir/$sub" ] && libpath="$libpath:$dir/$sub"
  done
done
for binary in "${binaries[@]}"; do
  LD_LIBRARY_PATH=${libpath#:} ldd "$binary" | while read -r name arrow path _; do
    case "$name" in
      linux-vdso.so.*) ;;
      /*) cp -L "$name" "$root/usr/lib64/$(basename "$name")" ;;
      *)
        [ "$arrow" = "=>" ] && [ -e "$path" ] || { echo "build_guest: $binary needs $name: not found" >&2; exit 1; }
        cp -L "$path" "$root/usr/lib/x86_64-linux-gnu/$name"
        ;;
    esac
  done
done

# The guest side: init, the runner, the scenario helpers and every scenario of tests/kernel/.
cp "$here/init" "$root/init"
cp "$here/runner.sh" "$here/lib.sh" "$root/kt/"
cp "$tier"/*_scenario.sh "$root/kt/"
chmod +x "$root/init" "$root"/kt/*.sh
echo "$kversion" >"$root/kt/kernel-version"

cp "$kdir/boot/vmlinuz-$kversion" "$out/vmlinuz"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$out/initramfs.cpio.new"
mv "$out/initramfs.cpio.new" "$out/initramfs.cpio"
echo "build_guest: $kernel_pkg ($kversion), initramfs $(($(stat -c %s "$out/initramfs.cpio") / 1048576)) MiB" >&2
