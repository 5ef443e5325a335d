#!/usr/bin/env bash
# Builds the rocewatch OCI image (deploy/container/Dockerfile, target `runtime`) with podman.
#   scripts/build-image.sh [IMAGE]      default IMAGE: localhost/rocewatch:<version of CMakeLists.txt>
# Environment:
#   BASE_IMAGE     a Debian 12 image with apt, used by the build and runtime stages. Unset: the public
#                  docker.io/library/debian:12-slim if it can be pulled, otherwise a minimal Debian
#                  root made from the Debian archive alone (mmdebstrap --variant=minbase bookworm,
#                  imported as localhost/rocewatch-debian-base:bookworm and reused afterwards).
#   DEBIAN_MIRROR  the archive mmdebstrap reads (default http://deb.debian.org/debian).
#   PULL_TIMEOUT   seconds to wait for the public base image (default 60).
#   ROCEWATCH_IMAGE_BINARIES
#                  an installed tree (DESTDIR of `cmake --install BUILD --prefix /usr/local
#                  --strip`) to pack instead of compiling in the build stage: the image then holds
#                  the very binary a test run tested (`make test-image` in CI). Unset: the build
#                  stage compiles the sources in Release, as a release build does.
# Prints the image's name, size and the build's wall time on the last lines. podman builds with
# --isolation=chroot, which needs no working container runtime (`podman run` may not work here).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$("$root/scripts/version.sh")
image=${1:-localhost/rocewatch:$version}
public_base=docker.io/library/debian:12-slim
local_base=localhost/rocewatch-debian-base:bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security_mirror=${DEBIAN_SECURITY_MIRROR:-${mirror%/debian}/debian-security}
begin=$SECONDS

command -v podman >/dev/null 2>&1 || {
  echo "build-image: podman is not installed (scripts/install-deps.sh image)" >&2
  exit 1
}

# A Debian 12 root from the archive, for machines that reach no container registry.
make_local_base() {
  command -v mmdebstrap >/dev/null 2>&1 || {
    echo "build-image: $public_base cannot be pulled and mmdebstrap is not installed" >&2
    exit 1
  }
  local tmp hooks=/usr/share/mmdebstrap/hooks/merged-usr
  [ -d "$hooks" ] || hooks=""
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/rocewatch-base.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" EXIT
  echo "build-image: making $local_base with mmdebstrap from $mirror"
  # Merged /usr set up by mmdebstrap's hook (not the usrmerge package, which pulls in perl), and
  # no documentation, manual pages or translations: what debian:12-slim leaves out as well.
  mmdebstrap --quiet --variant=minbase ${hooks:+--hook-dir=$hooks} \
    --aptopt='Acquire::Languages "none"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    bookworm "$tmp/root.tar" \
    "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
    "deb $security_mirror bookworm-security main"
  podman import --quiet --change 'CMD ["/bin/bash"]' \
    --message "Debian 12 minbase (mmdebstrap) for rocewatch" "$tmp/root.tar" "$local_base" >/dev/null
  rm -rf "$tmp"
  trap - EXIT
}

base=${BASE_IMAGE:-}
if [ -z "$base" ]; then
  if podman image exists "$public_base" ||
    timeout "${PULL_TIMEOUT:-60}" podman pull --quiet "$public_base" >/dev/null 2>&1; then
    base=$public_base
  else
    podman image exists "$local_base" || make_local_base
    base=$local_base
  fi
fi
echo "build-image: base image $base"

revision=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)
context=$root prebuilt=""
if [ -n "${ROCEWATCH_IMAGE_BINARIES:-}" ]; then
  [ -x "$ROCEWATCH_IMAGE_BINARIES/usr/local/bin/rocewatch" ] || {
    echo "build-image: $ROCEWATCH_IMAGE_BINARIES/usr/local/bin/rocewatch is not an installed binary" >&2
    exit 1
  }
  # A context of its own: what the stages copy from the sources, and the installed tree.
  context=$(mktemp -d "${TMPDIR:-/tmp}/rocewatch-image.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$context'" EXIT
  mkdir -p "$context/scripts"
  cp "$root/LICENSE" "$context/"
  cp "$root/scripts/install-deps.sh" "$context/scripts/"
  cp -a "$ROCEWATCH_IMAGE_BINARIES" "$context/prebuilt"
  prebuilt=prebuilt
  echo "build-image: packing the installed tree $ROCEWATCH_IMAGE_BINARIES (no compile)"
fi
podman build --isolation=chroot --pull=missing \
  --file "$root/deploy/container/Dockerfile" \
  --ignorefile "$root/deploy/container/Dockerfile.dockerignore" \
  --target runtime \
  --build-arg BASE_IMAGE="$base" \
  --build-arg VERSION="$version" \
  --build-arg REVISION="$revision" \
  --build-arg PREBUILT="$prebuilt" \
  --tag "$image" "$context"

size=$(podman image inspect --format '{{.Size}}' "$image")
echo "build-image: built $image from $base in $((SECONDS - begin)) s"
echo "build-image: image size $size bytes ($((size / 1000000)) MB)"
