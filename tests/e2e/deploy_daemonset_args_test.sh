#!/usr/bin/env bash
# The rocewatch container of the DaemonSet, as rendered from the kustomize base and the example
# overlay (kube-rbac-proxy: loopback listener, probes on 127.0.0.1) and from the plain overlay
# ($(HOST_IP) listener), works with the real binary:
# with its arguments and environment, $(HOST_IP) = 127.0.0.1, a free port, and ROCEWATCH_HOST_ROOT
# and the state file pointed at fixtures, the daemon starts, its liveness and readiness probes
# answer 200 where the kubelet sends them, it serves the fixture port's metrics, and it exits 0 on
# SIGTERM. `rocewatch diagnose` run with that environment and no flag (what `kubectl exec POD --
# rocewatch diagnose` does) reads the fixture host, not the container's. A renamed flag or
# variable fails here, not on a cluster.
source "$(dirname "$0")/deploy_lib.sh"
binary=${ROCEWATCH_BINARY:?ROCEWATCH_BINARY is not set}
need_tool kubectl "kubectl with kustomize, from the machine image"
need_tool python3 "Debian package python3"
need_node_tools
make_loopback_rnic "$work/host/sys" "4: ACTIVE" yes

# The rocewatch container spec of a rendered kustomization, as JSON: args, env, probes.
container_of() {  # KUSTOMIZATION_DIR OUT
  kubectl kustomize "$1" >"$work/rendered.yaml"
  (cd "$src/deploy/tools" && node --input-type=module -e '
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
const ds = parseAllDocuments(readFileSync(process.argv[1], "utf8")).map((d) => d.toJS())
  .find((o) => o?.kind === "DaemonSet");
console.log(JSON.stringify(ds.spec.template.spec.containers.find((c) => c.name === "rocewatch")));
' "$work/rendered.yaml") >"$2"
}
container_of "$src/deploy/kubernetes/base" "$work/base.json"
container_of "$src/deploy/kubernetes/overlays/example" "$work/example.json"
container_of "$src/deploy/kubernetes/overlays/plain" "$work/plain.json"

for variant in base example plain; do
python3 - "$binary" "$work" "$variant" <<'PY'
import json, os, re, signal, socket, subprocess, sys, time, urllib.request

binary, work, variant = sys.argv[1], sys.argv[2], sys.argv[3]
container = json.load(open(f"{work}/{variant}.json"))
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
state_dir = f"{work}/state-{variant}"
os.makedirs(state_dir)

def fixture(value):
    """A container value with the node's address, the port and the paths made local."""
    value = value.replace("$(HOST_IP)", "127.0.0.1")
    value = re.sub(r"^(127\.0\.0\.1):9879$", rf"\1:{port}", value)
    value = re.sub(r"^(--[a-z-]+=127\.0\.0\.1):9879$", rf"\1:{port}", value)
    return value

env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "ROCEWATCH_API_SOCKET": f"{work}/api-{variant}.sock"}
for var in container.get("env", []):
    if "value" in var:
        env[var["name"]] = fixture(var["value"])
    elif var.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") == "status.hostIP":
        env[var["name"]] = "127.0.0.1"
if env.get("ROCEWATCH_HOST_ROOT") != "/host":
    sys.exit(f"FAIL: {variant}: ROCEWATCH_HOST_ROOT is {env.get('ROCEWATCH_HOST_ROOT')}, not /host")
env["ROCEWATCH_HOST_ROOT"] = f"{work}/host"
if env.get("ROCEWATCH_STATE_FILE", "").startswith("/var/lib/rocewatch/"):
    env["ROCEWATCH_STATE_FILE"] = env["ROCEWATCH_STATE_FILE"].replace("/var/lib/rocewatch", state_dir)
if env.get("ROCEWATCH_GID_SOURCE") == "verbs":
    # No RDMA device opens on a build machine (verbs refuses to start without one, as it should):
    # the rest of the container's settings still run; the validator checks the verbs setting.
    print(f"note {variant}: ROCEWATCH_GID_SOURCE=verbs run as auto (no RDMA device here)")
    env["ROCEWATCH_GID_SOURCE"] = "auto"
args = [fixture(a) for a in container["args"]]
if any(a.startswith(("--host-root=", "--state-file=/var")) for a in args):
    sys.exit(f"FAIL: {variant}: unexpected paths in {args}")
settings = " ".join(f"{k}={v}" for k, v in sorted(env.items()) if k.startswith("ROCEWATCH_"))
print(f"{variant}: running {settings} rocewatch {' '.join(args)}")
daemon = subprocess.Popen([binary] + args, env=env, stdout=subprocess.DEVNULL,
                          stderr=open(f"{work}/daemon-{variant}.log", "w"))

def probe_url(probe):
    get = probe["httpGet"]
    target_port = port if get["port"] in ("metrics", 9879) else get["port"]
    return f"http://{get.get('host', '127.0.0.1')}:{target_port}{get['path']}"

def get(url):
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.status, r.read().decode()
    except Exception as e:
        return None, str(e)

def fail(message):
    if daemon.poll() is None:
        daemon.kill()
        daemon.wait()
    print(f"FAIL: {variant}: {message}\n--- daemon log:\n{open(f'{work}/daemon-{variant}.log').read()}")
    sys.exit(1)

deadline = time.monotonic() + 15
probes = {"liveness": probe_url(container["livenessProbe"]),
          "readiness": probe_url(container["readinessProbe"])}
while time.monotonic() < deadline and get(probes["liveness"])[0] != 200:
    if daemon.poll() is not None:
        fail(f"the daemon exited with {daemon.returncode}")
    time.sleep(0.1)
for name, url in probes.items():
    status, body = get(url)
    if status != 200:
        fail(f"{name} probe GET {url}: {status} {body[:200]}")
    print(f"ok   {variant}: {name} probe GET {url}: 200")
status, body = get(f"http://127.0.0.1:{port}/metrics")
if 'rocewatch_port_info{device="mlx5_0"' not in body:
    fail("no rocewatch_port_info for mlx5_0 in /metrics")
print(f"ok   {variant}: /metrics has the fixture port")

# kubectl exec POD -- rocewatch diagnose: the container's environment, no flags.
report = subprocess.run([binary, "diagnose", "--json"], env=env, capture_output=True, text=True,
                        timeout=30)
try:
    devices = [d["name"] for d in json.loads(report.stdout)["devices"]]
except (ValueError, KeyError) as e:
    fail(f"diagnose --json printed no report ({e}): {report.stdout[:200]} {report.stderr[:200]}")
if devices != ["mlx5_0"]:
    fail(f"diagnose with the container's environment saw devices {devices}, not the host's mlx5_0")
print(f"ok   {variant}: diagnose with the container's environment reads the host root: {devices}")
# ... and asks the pod's daemon where ROCEWATCH_LISTEN says it listens (the merge is said).
checks = [f["check"] for f in json.loads(report.stdout)["findings"]]
if "daemon" not in checks:
    fail(f"diagnose with the container's environment did not merge the daemon's findings: {checks}")
print(f"ok   {variant}: diagnose with the container's environment merged the daemon's findings")

daemon.send_signal(signal.SIGTERM)
try:
    code = daemon.wait(timeout=10)
except subprocess.TimeoutExpired:
    fail("no exit within 10 s of SIGTERM")
if code != 0:
    fail(f"exit status {code} after SIGTERM")
PY
done
echo "PASS: the DaemonSet's rocewatch container runs the daemon; diagnose reads the host"
