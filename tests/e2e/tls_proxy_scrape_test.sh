#!/usr/bin/env bash
# The default Kubernetes render's scrape path, without kube-rbac-proxy's image (not available
# here): the rocewatch container's listen address and the proxy's --upstream and --allow-paths are
# read from the rendered base; a local TLS-terminating stand-in of the proxy (tls_proxy.py: TLS,
# a bearer token, only the allowed paths) fronts the real daemon; a real Prometheus scrapes it the
# way the rendered ServiceMonitor says (https, the token, insecureSkipVerify). Checks: Prometheus
# gets the daemon's series through TLS; without the token the proxy answers 401, and a path not
# allowed 403; the daemon itself answers on loopback only (the probes' address), not on the node's.
source "$(dirname "$0")/monitoring_stack.sh"

e2e_require_commands kubectl python3 curl openssl prometheus promtool
python3 -c 'import yaml' 2>/dev/null || e2e_skip "python3-yaml is not installed (scripts/install-deps.sh e2e)"
e2e_setup 180
src=$E2E_SOURCE_DIR
fixture_tool="$(dirname "$ROCEWATCH_BINARY")/tests/rocewatch-fixture"
[ -x "$fixture_tool" ] || e2e_fail "no fixture tool at $fixture_tool"
"$fixture_tool" rails 1 "$E2E_DIR/node" >/dev/null || e2e_fail "rocewatch-fixture"

# What the default render says: the daemon's listen address, the proxy's upstream, allowed paths,
# and how the ServiceMonitor scrapes.
kubectl kustomize "$src/deploy/kubernetes/base" | python3 -c '
import sys, yaml
objs = [o for o in yaml.safe_load_all(sys.stdin) if o]
ds = next(o for o in objs if o["kind"] == "DaemonSet")
cs = {c["name"]: c for c in ds["spec"]["template"]["spec"]["containers"]}
env = {e["name"]: e.get("value") for e in cs["rocewatch"].get("env", [])}
args = dict(a.split("=", 1) for a in cs["kube-rbac-proxy"]["args"] if "=" in a)
sm = next(o for o in objs if o["kind"] == "ServiceMonitor")
ep = sm["spec"]["endpoints"][0]
print(env["ROCEWATCH_LISTEN"], args["--upstream"], args["--allow-paths"], ep["scheme"],
      ep["path"], str(ep.get("tlsConfig", {}).get("insecureSkipVerify", False)).lower())' \
  >"$E2E_DIR/render" || e2e_fail "the base does not render a daemon behind kube-rbac-proxy"
read -r listen upstream allow_paths scheme path skip_verify <"$E2E_DIR/render"
e2e_log "render: rocewatch listens $listen, proxy upstream $upstream, paths $allow_paths, scrape $scheme $path"
[[ $listen == 127.0.0.1:* ]] || e2e_fail "behind the proxy rocewatch must listen on loopback, not $listen"
[ "$scheme" = https ] || e2e_fail "the ServiceMonitor scrapes $scheme, not https"

# The daemon as rendered, on a free loopback port (the render's port is the host's 9879).
# Its host root is the fixture's: the sysfs, and a procfs of no process (never the machine's).
port=$(e2e_free_port)
mkdir -p "$E2E_DIR/node/proc"
e2e_start rocewatch "$ROCEWATCH_BINARY" run --host-root "$E2E_DIR/node" --listen "127.0.0.1:$port" \
  --state-file "" --api-socket ""
e2e_wait_until 30 "rocewatch /healthz" e2e_http_ok "http://127.0.0.1:$port/healthz"

# The proxy stand-in: a self-signed certificate (as kube-rbac-proxy makes one), a token.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=rocewatch-node -keyout "$E2E_DIR/key.pem" \
  -out "$E2E_DIR/cert.pem" >/dev/null 2>&1 || e2e_fail "openssl req"
token=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
printf '%s' "$token" >"$E2E_DIR/token"
proxy_port=$(e2e_free_port)
e2e_start tls-proxy python3 "$E2E_HELPERS/tls_proxy.py" --listen "127.0.0.1:$proxy_port" \
  --upstream "${upstream/127.0.0.1:9879/127.0.0.1:$port}" --allow-paths "$allow_paths" \
  --cert "$E2E_DIR/cert.pem" --key "$E2E_DIR/key.pem" --token-file "$E2E_DIR/token"
e2e_wait_until 20 "the TLS proxy" bash -c "curl -sk -o /dev/null https://127.0.0.1:$proxy_port/"

code() { curl -sk -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code "https://127.0.0.1:$proxy_port$path")" = 401 ] || e2e_fail "no token: not 401"
[ "$(code -H "Authorization: Bearer $token" "https://127.0.0.1:$proxy_port/healthz")" = 403 ] ||
  e2e_fail "a path not allowed through the proxy was not refused"
[ "$(code -H "Authorization: Bearer $token" "https://127.0.0.1:$proxy_port$path")" = 200 ] ||
  e2e_fail "the token's scrape through TLS failed"

# Prometheus, scraping as the ServiceMonitor does.
prom_port=$(e2e_free_port)
cat >"$E2E_DIR/prometheus.yml" <<EOF
global: {scrape_interval: 1s, scrape_timeout: 1s}
scrape_configs:
  - job_name: rocewatch
    scheme: $scheme
    metrics_path: $path
    authorization: {credentials_file: $E2E_DIR/token}
    tls_config: {insecure_skip_verify: $skip_verify}
    static_configs: [{targets: ['127.0.0.1:$proxy_port']}]
EOF
promtool check config "$E2E_DIR/prometheus.yml" >/dev/null || e2e_fail "promtool check config"
PROM_URL="http://127.0.0.1:$prom_port"
e2e_start prometheus prometheus --config.file="$E2E_DIR/prometheus.yml" \
  --storage.tsdb.path="$E2E_DIR/prometheus-data" --web.listen-address="127.0.0.1:$prom_port"
e2e_wait_until 60 "Prometheus ready" e2e_http_ok "$PROM_URL/-/ready"
e2e_wait_until 60 "the daemon's series in Prometheus through TLS" \
  e2e_prom_has 'up{job="rocewatch"} == 1 and on(instance) rocewatch_port_info{device="mlx5_0"}'
echo "PASS: the default render's scrape path: Prometheus reads the daemon through TLS and a token; no token 401, other paths 403"
