#!/usr/bin/env bash
# Installs the Debian 12 packages rocewatch needs that are missing, and nothing else.
#   scripts/install-deps.sh build      libraries and tools to build and unit-test
#   scripts/install-deps.sh e2e        + Prometheus, Alertmanager, yamllint, lldpd, tcpdump, Slurm,
#                                        munge (end-to-end tests; lldpd is the stand-in switch of the
#                                        LLDP tests, Slurm the one of slurm-check)
#   scripts/install-deps.sh bench      + Google Benchmark, node_exporter, strace (benchmarks)
#   scripts/install-deps.sh fuzz       + clang, its sanitizer runtimes and lld (the ASan and TSan trees,
#                                        libFuzzer; where lld is installed, every tree links with it)
#   scripts/install-deps.sh image      + podman, buildah, mmdebstrap (make image, make test-image)
#   scripts/install-deps.sh format     + clang-format (make format, make check-format)
#   scripts/install-deps.sh kernel     + qemu-system-x86 (make test-kernel: the soft-RoCE guest;
#                                        its own packages are downloaded, not installed)
set -euo pipefail

build_pkgs=(build-essential cmake ninja-build pkg-config git
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libibverbs-dev libnl-3-dev libnl-route-3-dev libnl-genl-3-dev prometheus-cpp-dev libspdlog-dev
  libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev libsystemd-dev zlib1g-dev
  iproute2 python3 curl)
e2e_pkgs=(prometheus prometheus-alertmanager yamllint systemd nodejs npm kubectl python3-yaml
  lldpd tcpdump slurmctld slurmd slurm-client munge)
bench_pkgs=(libbenchmark-dev prometheus-node-exporter strace)
fuzz_pkgs=(clang libclang-rt-14-dev lld)
image_pkgs=(podman buildah mmdebstrap)
format_pkgs=(clang-format)
kernel_pkgs=(qemu-system-x86 iproute2 cpio)

wanted=("${build_pkgs[@]}")
for set in "$@"; do
  case "$set" in
    build) ;;
    e2e) wanted+=("${e2e_pkgs[@]}") ;;
    bench) wanted+=("${bench_pkgs[@]}") ;;
    fuzz) wanted+=("${fuzz_pkgs[@]}") ;;
    image) wanted+=("${image_pkgs[@]}") ;;
    format) wanted+=("${format_pkgs[@]}") ;;
    kernel) wanted+=("${kernel_pkgs[@]}") ;;
    *) echo "install-deps: unknown set '$set'" >&2; exit 2 ;;
  esac
done

missing=()
for pkg in "${wanted[@]}"; do
  # kubectl is not a Debian package everywhere; accept any kubectl on PATH.
  if [ "$pkg" = kubectl ]; then command -v kubectl >/dev/null 2>&1 || true; continue; fi
  if [ "$pkg" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
  if [ "$pkg" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "install-deps: missing packages (${missing[*]}) and not root; install them first" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
