#!/usr/bin/env bash
# What can be checked of deploy/container/Dockerfile without a container engine (none runs on our
# machines): its runtime package list is exactly the Debian packages that ship the shared libraries
# the built binary and its kubelet module need (readelf NEEDED and ldd, owners by dpkg -S), plus
# those loaded with dlopen() (libsystemd by the binary, the drivers by libibverbs); the image holds
# the module; every library ldd resolves comes with those packages or their dependencies; and the
# image's uid is the one the Kubernetes DaemonSet runs as.
source "$(dirname "$0")/deploy_lib.sh"
binary=${ROCEWATCH_BINARY:-$src/build/rocewatch}
[ -x "$binary" ] || fail "no rocewatch binary at $binary (set ROCEWATCH_BINARY)"
module="$(dirname "$binary")/librocewatch-kubelet.so"
[ -f "$module" ] || fail "no kubelet module next to the binary ($module)"
need_tool ldd "Debian package libc-bin"
need_tool readelf "Debian package binutils"
need_tool dpkg-query "a Debian system"
need_tool python3 "Debian package python3"

python3 - "$binary" "$module" "$src" <<'PY'
import re, subprocess, sys

binary, module, src = sys.argv[1], sys.argv[2], sys.argv[3]
dockerfile = open(f"{src}/deploy/container/Dockerfile").read()
daemonset = open(f"{src}/deploy/kubernetes/core/daemonset.yaml").read()
# Packages whose libraries the binary loads with dlopen(), keyed by the package that does it.
DLOPEN = {"libibverbs1": {"ibverbs-providers"}}
# Libraries the binary itself loads with dlopen() (by soname), when its bytes name them:
# libsystemd under a service manager (os/systemd_notifier.cc).
SELF_DLOPEN = ["libsystemd.so.0"]
problems = []

def run(*args):
    return subprocess.run(args, capture_output=True, text=True).stdout

def owner(path):
    """The package that ships a library path, trying both sides of the merged /usr."""
    alternatives = {path, re.sub(r"^/usr/lib/", "/lib/", path), re.sub(r"^/lib/", "/usr/lib/", path)}
    for candidate in sorted(alternatives):
        out = run("dpkg-query", "-S", candidate)
        if out:
            return out.split(":")[0]
    return None

listed = set(re.search(r'ARG RUNTIME_PACKAGES="([^"]*)"', dockerfile).group(1).replace("\\", " ").split())

if "/usr/local/lib/rocewatch/librocewatch-kubelet.so" not in dockerfile:
    problems.append("the runtime stage does not copy the kubelet module to /usr/local/lib/rocewatch/")

resolved = {}  # soname -> path, for every library ldd resolves (direct and transitive)
needed = []
for elf in (binary, module):
    for line in run("ldd", elf).splitlines():
        m = re.match(r"\s*(\S+) => (\S+)", line)
        if m:
            if m.group(2) == "not":
                problems.append(f"ldd cannot resolve {m.group(1)} (of {elf})")
            else:
                resolved[m.group(1)] = m.group(2)
    needed += re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run("readelf", "-d", elf))
needed = sorted(set(needed))

expected = set()
binary_bytes = open(binary, "rb").read()
for soname in SELF_DLOPEN:
    if soname.encode() not in binary_bytes:
        problems.append(f"the binary does not name {soname}: update SELF_DLOPEN")
        continue
    m = re.search(rf"^\s*{re.escape(soname)} \(libc6,x86-64\) => (\S+)$", run("ldconfig", "-p"), re.M)
    package = owner(m.group(1)) if m else None
    if package is None:
        problems.append(f"the binary loads {soname} with dlopen(), and no Debian package here ships it")
    else:
        expected.add(package)
for soname in needed:
    package = owner(resolved.get(soname, ""))
    if package is None:
        problems.append(f"no Debian package ships {soname} ({resolved.get(soname)})")
        continue
    expected.add(package)
    expected |= DLOPEN.get(package, set())

for package in sorted(expected - listed):
    problems.append(f"RUNTIME_PACKAGES lacks {package} (the binary needs it)")
for package in sorted(listed - expected):
    problems.append(f"RUNTIME_PACKAGES has {package}, which no library of the binary needs")

# The closure of the listed packages under Depends/Pre-Depends (as installed here).
def depends(package):
    fields = run("dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}", package)
    return {alt.split()[0].split(":")[0] for dep in fields.split(",") if dep.strip()
            for alt in dep.split("|")[:1]}
closure, todo = set(), list(listed)
while todo:
    package = todo.pop()
    if package not in closure:
        closure.add(package)
        todo.extend(depends(package) - closure)
for soname, path in sorted(resolved.items()):
    package = owner(path)
    if package not in closure:
        problems.append(f"{soname} comes from {package}, which the runtime packages do not pull in")
for package in sorted(listed):
    status = run("dpkg-query", "-W", "-f=${Status}", package)
    if status != "install ok installed":
        problems.append(f"{package} is not an installed Debian package here (status '{status}')")

# The image runs as a non-root user wherever it is started by hand; the DaemonSet chooses its own
# identity explicitly (uid 0 with every capability dropped but NET_ADMIN: docs/deploy.md,
# "Privileges, measured"), so it never inherits the image's.
user = re.search(r"^USER (\d+):(\d+)$", dockerfile, re.M)
run_as = re.search(r"^        runAsUser: (\d+)$", daemonset, re.M)
if not user or user.group(1) == "0":
    problems.append("the runtime stage must run as a numeric non-root USER uid:gid")
if not run_as:
    problems.append("the DaemonSet's pod must set runAsUser explicitly, not inherit the image's USER")

for p in problems:
    print(f"FAIL: {p}")
if problems:
    sys.exit(1)
print(f"PASS: runtime packages = owners of {len(needed)} NEEDED libraries + dlopen drivers: "
      f"{' '.join(sorted(listed))}; {len(resolved)} resolved libraries covered")
PY
