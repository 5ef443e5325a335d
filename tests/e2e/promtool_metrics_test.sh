#!/usr/bin/env bash
# `promtool check metrics` on a real scrape prints nothing: names, types, help texts and units of
# the whole exposition pass Prometheus' own lint. The node holds every family: the example
# eight-rail node (inventory, GIDs with --expected-gid-index, counters, the state file metrics,
# traffic after two polls) with, for every rail, the ethtool recordings of a real mlx5 port
# (mlx5_recordings.py: `ethtool -S` with the PHY, FEC and PFC counters, FEC statistics, link
# state, an SFF-8636 module's pages), advanced once so that the windowed figures (pre-FEC BER,
# PFC paused ratio) exist.
# Exit 77 (skip) when promtool or curl is missing.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"

e2e_require_commands promtool curl python3
e2e_setup 60
fixture_tool="$(dirname "${ROCEWATCH_BINARY:?ROCEWATCH_BINARY must name the rocewatch binary}")/tests/rocewatch-fixture"
[ -x "$fixture_tool" ] || e2e_fail "no fixture tool at $fixture_tool (build the rocewatch-fixture target)"
"$fixture_tool" example-8-rail "$E2E_DIR/node" >/dev/null
rails=(ens1f0np0 ens2f0np0 ens3f0np0 ens4f0np0 ens5f0np0 ens6f0np0 ens7f0np0 ens8f0np0)
for netdev in "${rails[@]}"; do python3 "$E2E_HELPERS/mlx5_recordings.py" "$E2E_DIR/node" "$netdev" 1; done
mkdir -p "$E2E_DIR/node/proc/sys/kernel/random"
echo 5c0e2f3a-1b2c-4d5e-8f90-0123456789ab >"$E2E_DIR/node/proc/sys/kernel/random/boot_id"
port=$(e2e_free_port)
e2e_start rocewatch "$ROCEWATCH_BINARY" run --host-root "$E2E_DIR/node" --listen "127.0.0.1:$port" \
  --state-file "$E2E_DIR/state.json" --expected-gid-index 3 --interval 200ms \
  --ethtool-interval 200ms --optics-interval 200ms
e2e_wait_until 20 "rocewatch /healthz" e2e_http_ok "http://127.0.0.1:$port/healthz"
scrape() { curl -fsS --max-time 5 "http://127.0.0.1:$port/metrics" >"$E2E_DIR/metrics.prom"; }
has_rates() { scrape && grep -q '^rocewatch_traffic_rate_bytes_per_second{' "$E2E_DIR/metrics.prom"; }
e2e_wait_until 20 "a scrape with traffic rates" has_rates
has_family() { scrape && grep -q "^$1{" "$E2E_DIR/metrics.prom"; }
recorded_families() {
  has_family rocewatch_netdev_fec_corrected_bit_errors_total &&
    has_family rocewatch_netdev_pfc_pause_seconds_total && has_family rocewatch_module_rx_power_watts
}
e2e_wait_until 20 "the recorded FEC, PFC and module families" recorded_families
# The counters advance (one more second of a 100G link): the windowed figures appear.
for netdev in "${rails[@]}"; do python3 "$E2E_HELPERS/mlx5_recordings.py" "$E2E_DIR/node" "$netdev" 3; done
e2e_wait_until 20 "a pre-FEC BER from the advancing recordings" has_family rocewatch_netdev_pre_fec_ber
for family in rocewatch_netdev_fec_corrected_blocks_total rocewatch_netdev_fec_uncorrectable_blocks_total \
  rocewatch_netdev_fec_corrected_bit_errors_total rocewatch_netdev_pfc_pause_seconds_total \
  rocewatch_netdev_pfc_pause_frames_total rocewatch_link_quality_state rocewatch_module_temperature_celsius \
  rocewatch_module_rx_power_watts rocewatch_module_tx_bias_amperes rocewatch_netdev_ethtool_supported; do
  grep -q "^$family{" "$E2E_DIR/metrics.prom" || e2e_fail "no $family in the scrape of the recorded mlx5 node"
done
families=$(grep -c '^# TYPE ' "$E2E_DIR/metrics.prom")
lint=$(promtool check metrics <"$E2E_DIR/metrics.prom" 2>&1) || true
[ -z "$lint" ] || e2e_fail "promtool check metrics of a real scrape: $lint"
e2e_log "PASS: promtool check metrics prints nothing for $families families (eight rails with mlx5 FEC, PFC and module recordings)"
