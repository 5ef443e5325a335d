#!/usr/bin/env bash
# End to end: a GID drift on a node becomes a PagerDuty event, and its recovery a resolve.
# Prometheus (1 s scrapes, the shipped rules with windows scaled down by a generated copy),
# Alertmanager (the shipped configuration pointed at a local PagerDuty Events v2 stand-in) and
# the stand-in run on loopback with free ports; all stopped and removed at the end (trap).
#
# SCAFFOLDING: the node is a static metrics target (python http.server serving an exposition file
# this script rewrites: healthy -> NetworkManager-style flap -> GID moved from 2/3 to 4/5). It
# proves the monitoring path, not the daemon; it is replaced by `rocewatch run` on a simulated
# node once the netlink and GID drift work lands.
#
# Exit 77 (skip) when prometheus, prometheus-alertmanager, promtool, amtool, curl or python3 is
# missing. Set E2E_CAPTURE_DIR to keep the captured PagerDuty events.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"

e2e_require_commands prometheus prometheus-alertmanager promtool amtool curl python3
e2e_setup 300

# ---- the scaffold node: a static exposition ---------------------------------------------------
NODE_DIR="$E2E_DIR/node"
mkdir -p "$NODE_DIR"
NODE_STATE=healthy
DRIFT_TIME=0

write_exposition() {
  local now carrier=1 addresses=1 flaps=0 lost=0 drifts=0 v1=2 v2=3 state=normal rate=40000000000
  now=$(date +%s.%N)
  case "$NODE_STATE" in
    flapped) carrier=0 addresses=0 flaps=1 lost=1 v1="" v2="" state=link_down rate=0 ;;
    drifted) flaps=1 lost=1 drifts=1 v1=4 v2=5 ;;
  esac
  {
    echo '# TYPE rocewatch_build_info gauge'
    echo 'rocewatch_build_info{version="0.1.0-scaffold"} 1'
    echo 'rocewatch_port_info{device="mlx5_0",port="1",link_layer="Ethernet",netdev="ens1f0np0"} 1'
    echo "rocewatch_port_active{device=\"mlx5_0\",port=\"1\"} $carrier"
    local gid_labels='device="mlx5_0",port="1",netdev="ens1f0np0"'
    echo "rocewatch_gid_info{$gid_labels,index=\"0\",gid=\"fe80:0000:0000:0000:0202:c9ff:fe00:0001\",type=\"roce_v1\"} 1"
    echo "rocewatch_gid_info{$gid_labels,index=\"1\",gid=\"fe80:0000:0000:0000:0202:c9ff:fe00:0001\",type=\"roce_v2\"} 1"
    if [ -n "$v1" ]; then
      echo "rocewatch_gid_info{$gid_labels,index=\"$v1\",gid=\"0000:0000:0000:0000:0000:ffff:0a00:0001\",type=\"roce_v1\"} 1"
      echo "rocewatch_gid_info{$gid_labels,index=\"$v2\",gid=\"0000:0000:0000:0000:0000:ffff:0a00:0001\",type=\"roce_v2\"} 1"
    fi
    echo '# TYPE rocewatch_gid_drift_events_total counter'
    echo "rocewatch_gid_drift_events_total{$gid_labels} $drifts"
    echo "rocewatch_gid_last_drift_timestamp_seconds{$gid_labels} $DRIFT_TIME"
    echo "rocewatch_gid_index_mismatch{$gid_labels} 0"
    echo "rocewatch_netdev_carrier{netdev=\"ens1f0np0\"} $carrier"
    echo '# TYPE rocewatch_link_flaps_total counter'
    echo "rocewatch_link_flaps_total{netdev=\"ens1f0np0\"} $flaps"
    echo '# TYPE rocewatch_netdev_carrier_changes_total counter'
    echo "rocewatch_netdev_carrier_changes_total{netdev=\"ens1f0np0\"} $((flaps * 2))"
    echo '# TYPE rocewatch_ip_lost_during_flap_total counter'
    echo "rocewatch_ip_lost_during_flap_total{netdev=\"ens1f0np0\"} $lost"
    echo "rocewatch_netdev_addresses{netdev=\"ens1f0np0\",family=\"ipv4\"} $addresses"
    echo "rocewatch_ip_missing{netdev=\"ens1f0np0\"} 0"
    echo "rocewatch_policy_rules_missing{netdev=\"ens1f0np0\"} 0"
    echo '# TYPE rocewatch_port_transmit_bytes_total counter'
    echo "rocewatch_port_transmit_bytes_total{device=\"mlx5_0\",port=\"1\"} ${now%.*}000"
    echo '# TYPE rocewatch_port_receive_bytes_total counter'
    echo "rocewatch_port_receive_bytes_total{device=\"mlx5_0\",port=\"1\"} ${now%.*}000"
    echo '# TYPE rocewatch_port_hw_counter_total counter'
    echo "rocewatch_port_hw_counter_total{device=\"mlx5_0\",port=\"1\",counter=\"out_of_sequence\"} $((flaps * 7))"
    echo "rocewatch_traffic_rate_bytes_per_second{device=\"mlx5_0\",port=\"1\"} $rate"
    echo "rocewatch_traffic_baseline_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 40000000000"
    local s
    for s in idle normal degraded collapsed link_down; do
      echo "rocewatch_traffic_state{device=\"mlx5_0\",port=\"1\",state=\"$s\"} $([ "$s" = "$state" ] && echo 1 || echo 0)"
    done
    echo "rocewatch_last_poll_timestamp_seconds $now"
    echo '# TYPE rocewatch_poll_duration_seconds histogram'
    echo 'rocewatch_poll_duration_seconds_bucket{le="0.001"} 10'
    echo 'rocewatch_poll_duration_seconds_bucket{le="0.01"} 20'
    echo 'rocewatch_poll_duration_seconds_bucket{le="+Inf"} 20'
    echo 'rocewatch_poll_duration_seconds_sum 0.05'
    echo 'rocewatch_poll_duration_seconds_count 20'
    echo '# TYPE rocewatch_source_errors_total counter'
    echo 'rocewatch_source_errors_total{source="sysfs"} 0'
    echo '# TYPE rocewatch_netlink_resyncs_total counter'
    echo 'rocewatch_netlink_resyncs_total 0'
  } >"$NODE_DIR/metrics.tmp"
  mv "$NODE_DIR/metrics.tmp" "$NODE_DIR/metrics"
}
# Keeps the node "polling" (fresh last-poll timestamp) while the test waits.
e2e_tick() { write_exposition; }

node_start() {
  write_exposition
  local port
  port=$(e2e_free_port)
  e2e_start node python3 -m http.server "$port" --bind 127.0.0.1 --directory "$NODE_DIR"
  NODE_TARGET="127.0.0.1:$port"
  e2e_wait_until 20 "the scaffold node" e2e_http_ok "http://$NODE_TARGET/metrics"
}
node_flap() { NODE_STATE=flapped; write_exposition; }
node_return_with_moved_gid() { DRIFT_TIME=$(date +%s); NODE_STATE=drifted; write_exposition; }

# ---- the monitoring path ---------------------------------------------------------------------
e2e_start_receiver
e2e_start_alertmanager
node_start
e2e_start_prometheus "$NODE_TARGET"
e2e_log "receiver $PD_URL, alertmanager $AM_URL, prometheus $PROM_URL, node $NODE_TARGET"

e2e_wait_until 30 "the node scraped" e2e_prom_has 'up{job="rocewatch"} == 1'
e2e_wait_until 10 "healthy rules" e2e_rules_healthy
sleep 3
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "a healthy node paged: $(e2e_pd_events 'True')"

e2e_log "NetworkManager-style flap: carrier down, address removed"
node_flap
e2e_wait_until 20 "the flap scraped" e2e_prom_has 'rocewatch_netdev_carrier == 0'
sleep 2
e2e_log "carrier and address back, RoCE v2 GID moved from index 3 to 5"
node_return_with_moved_gid

drift_trigger='e["body"].get("event_action") == "trigger" and e["body"]["payload"]["custom_details"].get("alertname") == "RoceGidDrift"'
e2e_wait_until 60 "a PagerDuty trigger for RoceGidDrift" e2e_pd_has "$drift_trigger"
trigger=$(e2e_pd_events "$drift_trigger" | head -n 1)
e2e_log "trigger: $trigger"
python3 - "$trigger" "$E2E_ROUTING_KEY" <<'EOF' || e2e_fail "the trigger event is not what PagerDuty must receive"
import json, sys
record, key = json.loads(sys.argv[1]), sys.argv[2]
body = record["body"]
details = body["payload"]["custom_details"]
checks = {
    "accepted by the stand-in": record["accepted"],
    "routing key from routing_key_file": body["routing_key"] == key,
    "dedup key": bool(body.get("dedup_key")),
    "severity critical": body["payload"]["severity"] == "critical",
    "device in details": details.get("device") == "mlx5_0/1",
    "netdev in details": details.get("netdev") == "ens1f0np0",
    "instance as source": body["payload"]["source"] == details.get("instance") != "",
    "summary names the alert": "RoceGidDrift" in body["payload"]["summary"],
    "runbook link": any(l["href"].endswith("docs/runbooks/RoceGidDrift.md") for l in body.get("links", [])),
}
failed = [name for name, ok in checks.items() if not ok]
print("trigger checks:", "all passed" if not failed else "FAILED %s" % failed)
sys.exit(1 if failed else 0)
EOF
dedup_key=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["body"]["dedup_key"])' "$trigger")

# The IP loss is a warning on the warning route.
e2e_pd_has 'e["body"].get("event_action") == "trigger" and e["body"]["payload"]["custom_details"].get("alertname") == "RoceIpLostDuringFlap" and e["body"]["payload"]["severity"] == "warning"' ||
  e2e_fail "no warning trigger for RoceIpLostDuringFlap"

e2e_log "dashboard: every panel query against Prometheus"
python3 "$E2E_HELPERS/dashboard_queries.py" --prometheus "$PROM_URL" --var "instance=$NODE_TARGET" \
  --var 'device=.*' --range 60 --require-data "$E2E_SOURCE_DIR/deploy/grafana/rocewatch-dashboard.json" ||
  e2e_fail "dashboard queries"

e2e_log "no further drift: waiting for the drift window (30 min scaled to 30 s) to pass"
e2e_wait_until 90 "a PagerDuty resolve for $dedup_key" \
  e2e_pd_has "e[\"body\"].get(\"event_action\") == \"resolve\" and e[\"body\"].get(\"dedup_key\") == \"$dedup_key\""
e2e_log "resolve: $(e2e_pd_events "e[\"body\"].get(\"event_action\") == \"resolve\" and e[\"body\"].get(\"dedup_key\") == \"$dedup_key\"" | head -n 1)"

e2e_rules_healthy || e2e_fail "a rule failed to evaluate"
rejected=$(e2e_pd_events 'not e["accepted"]')
[ -z "$rejected" ] || e2e_fail "the PagerDuty stand-in rejected events: $rejected"
if [ -n "${E2E_CAPTURE_DIR:-}" ]; then cp "$PD_EVENTS" "$E2E_CAPTURE_DIR/pagerduty-events.jsonl"; fi
e2e_log "PASS: $(wc -l <"$PD_EVENTS") PagerDuty events, all valid; drift trigger and resolve seen"
