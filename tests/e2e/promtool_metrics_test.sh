#!/usr/bin/env bash
# `promtool check metrics` on a real scrape prints nothing: names, types, help texts and units of
# the whole exposition (every family the example eight-rail node produces: inventory, GIDs with
# --expected-gid-index, counters, the state file metrics, traffic after two polls) pass Prometheus' own lint.
# Exit 77 (skip) when promtool or curl is missing.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"

e2e_require_commands promtool curl python3
e2e_setup 60
fixture_tool="$(dirname "${ROCEWATCH_BINARY:?ROCEWATCH_BINARY must name the rocewatch binary}")/tests/rocewatch-fixture"
[ -x "$fixture_tool" ] || e2e_fail "no fixture tool at $fixture_tool (build the rocewatch-fixture target)"
"$fixture_tool" example-8-rail "$E2E_DIR/node" >/dev/null
mkdir -p "$E2E_DIR/node/proc/sys/kernel/random"
echo 5c0e2f3a-1b2c-4d5e-8f90-0123456789ab >"$E2E_DIR/node/proc/sys/kernel/random/boot_id"
port=$(e2e_free_port)
e2e_start rocewatch "$ROCEWATCH_BINARY" run --host-root "$E2E_DIR/node" --listen "127.0.0.1:$port" \
  --state-file "$E2E_DIR/state.json" --expected-gid-index 3 --interval 200ms
e2e_wait_until 20 "rocewatch /healthz" e2e_http_ok "http://127.0.0.1:$port/healthz"
scrape() { curl -fsS --max-time 5 "http://127.0.0.1:$port/metrics" >"$E2E_DIR/metrics.prom"; }
has_rates() { scrape && grep -q '^rocewatch_traffic_rate_bytes_per_second{' "$E2E_DIR/metrics.prom"; }
e2e_wait_until 20 "a scrape with traffic rates" has_rates
families=$(grep -c '^# TYPE ' "$E2E_DIR/metrics.prom")
lint=$(promtool check metrics <"$E2E_DIR/metrics.prom" 2>&1) || true
[ -z "$lint" ] || e2e_fail "promtool check metrics of a real scrape: $lint"
e2e_log "PASS: promtool check metrics prints nothing for $families families"
