#!/usr/bin/env bash
# The rocewatch container's command line, as rendered from the kustomize base, works with the real
# binary: with $(HOST_IP) = 127.0.0.1, a free port, the host root and the state directory pointed at
# fixtures, the daemon starts, its liveness and readiness probe paths answer 200, it serves the
# fixture port's metrics, and it exits 0 on SIGTERM. A renamed flag fails here, not on a cluster.
source "$(dirname "$0")/deploy_lib.sh"
binary=${ROCEWATCH_BINARY:?ROCEWATCH_BINARY is not set}
need_tool kubectl "kubectl with kustomize, from the machine image"
need_tool python3 "Debian package python3"
need_node_tools
make_loopback_rnic "$work/host/sys" "4: ACTIVE" yes

kubectl kustomize "$src/deploy/kubernetes/base" >"$work/base.yaml"
# The container spec as JSON: args, env, probes.
(cd "$src/deploy/tools" && node --input-type=module -e '
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
const ds = parseAllDocuments(readFileSync(process.argv[1], "utf8")).map((d) => d.toJS())
  .find((o) => o?.kind === "DaemonSet");
console.log(JSON.stringify(ds.spec.template.spec.containers.find((c) => c.name === "rocewatch")));
' "$work/base.yaml") >"$work/container.json"

python3 - "$binary" "$work" <<'PY'
import json, os, re, signal, socket, subprocess, sys, time, urllib.request

binary, work = sys.argv[1], sys.argv[2]
container = json.load(open(f"{work}/container.json"))
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
os.makedirs(f"{work}/state")
args = []
for arg in container["args"]:
    arg = arg.replace("$(HOST_IP)", "127.0.0.1")
    arg = re.sub(r"^(--listen=127\.0\.0\.1):\d+$", rf"\1:{port}", arg)
    arg = arg.replace("--host-root=/host", f"--host-root={work}/host")
    arg = arg.replace("--state-file=/var/lib/rocewatch/", f"--state-file={work}/state/")
    args.append(arg)
if any(a.startswith(("--host-root=/host", "--state-file=/var")) for a in args):
    sys.exit(f"FAIL: unexpected paths in {args}")
print("running:", " ".join(["rocewatch"] + args))
daemon = subprocess.Popen([binary] + args, stdout=subprocess.DEVNULL,
                          stderr=open(f"{work}/daemon.log", "w"))

def get(path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
            return r.status, r.read().decode()
    except Exception as e:
        return None, str(e)

def fail(message):
    if daemon.poll() is None:
        daemon.kill()
        daemon.wait()
    print(f"FAIL: {message}\n--- daemon log:\n{open(f'{work}/daemon.log').read()}")
    sys.exit(1)

deadline = time.monotonic() + 15
probes = {"liveness": container["livenessProbe"]["httpGet"]["path"],
          "readiness": container["readinessProbe"]["httpGet"]["path"]}
while time.monotonic() < deadline and get(probes["liveness"])[0] != 200:
    if daemon.poll() is not None:
        fail(f"the daemon exited with {daemon.returncode}")
    time.sleep(0.1)
for name, path in probes.items():
    status, body = get(path)
    if status != 200:
        fail(f"{name} probe GET {path}: {status} {body[:200]}")
    print(f"ok   {name} probe GET {path}: 200")
status, body = get("/metrics")
if 'rocewatch_port_info{device="mlx5_0"' not in body:
    fail("no rocewatch_port_info for mlx5_0 in /metrics")
print("ok   /metrics has the fixture port")
daemon.send_signal(signal.SIGTERM)
try:
    code = daemon.wait(timeout=10)
except subprocess.TimeoutExpired:
    fail("no exit within 10 s of SIGTERM")
if code != 0:
    fail(f"exit status {code} after SIGTERM")
print("PASS: the DaemonSet's command line runs the daemon")
PY
