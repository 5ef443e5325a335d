#!/usr/bin/env bash
# End to end: a link flap on a node moves a GID, and it ends as a PagerDuty event.
# In a network namespace of its own (loopback only, free ports): `rocewatch run` on a simulated
# node (fixture sysfs + a veth RNIC, simulated_node.sh), Prometheus scraping it every second with
# the shipped rules (windows divided by 60 in a generated copy; the shipped file is untouched),
# Alertmanager with the shipped configuration (its PagerDuty `url` pointed at a local Events v2
# stand-in, a test routing_key_file), and the stand-in. A NetworkManager-style flap moves the RoCE v2
# GID of mlx5_0/1 from index 3 to 5 while a job holds the old entries; the test asserts a `trigger`
# with severity critical, the routing key, a dedup key, device and netdev in the details, then a
# `resolve` of the same incident once the drift window has passed without another move. Every
# dashboard query runs against the real Prometheus. Everything is stopped and removed at the end,
# even on failure (trap).
#
# Exit 77 (skip) without root / network namespaces, or when prometheus, prometheus-alertmanager,
# promtool, amtool, curl or python3 is missing. Set E2E_CAPTURE_DIR to keep the PagerDuty events.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"
source "$(dirname "$0")/simulated_node.sh"

e2e_require_commands prometheus prometheus-alertmanager promtool amtool curl python3
e2e_setup 300
sim_node_create
DASHBOARD_ALLOW_EMPTY=()
e2e_start_receiver
e2e_start_alertmanager
sim_node_start_daemon --interval 1s --gid-source sysfs --log-level info --expected-gid-index 3
sim_traffic_start
e2e_start_prometheus "$NODE_TARGET"
e2e_log "namespace $E2E_NETNS: rocewatch $NODE_TARGET, prometheus $PROM_URL, alertmanager $AM_URL, receiver $PD_URL"

e2e_wait_until 30 "rocewatch scraped" e2e_prom_has 'up{job="rocewatch"} == 1'
e2e_wait_until 30 "the RNIC's carrier in Prometheus" e2e_prom_has 'rocewatch_netdev_carrier{netdev="ens1f0np0"} == 1'
e2e_wait_until 10 "healthy rules" e2e_rules_healthy
e2e_wait_until 40 "a learned traffic baseline" e2e_prom_has 'rocewatch_traffic_baseline_bytes_per_second{device="mlx5_0"} > 0'
e2e_prom_has 'rocewatch_gid_info{device="mlx5_0",index="3",type="roce_v2"}' || e2e_fail "no RoCE v2 GID at index 3 before the flap"
sleep 3
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "a healthy node paged: $(e2e_pd_events 'True')"

sim_flap_networkmanager

e2e_wait_until 20 "the move in Prometheus" e2e_prom_has 'rocewatch_gid_info{device="mlx5_0",index="5",type="roce_v2"}'
drift_trigger='e["body"].get("event_action") == "trigger" and e["body"]["payload"]["custom_details"].get("alertname") == "RoceGidDrift"'
e2e_wait_until 60 "a PagerDuty trigger for RoceGidDrift" e2e_pd_has "$drift_trigger"
trigger=$(e2e_pd_events "$drift_trigger" | sed -n 1p)
e2e_log "trigger: $trigger"
python3 - "$trigger" "$E2E_ROUTING_KEY" "$NODE_TARGET" <<'EOF' || e2e_fail "the trigger event is not what PagerDuty must receive"
import json, sys
record, key, node = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
body = record["body"]
details = body["payload"]["custom_details"]
checks = {
    "accepted by the stand-in": record["accepted"],
    "routing key from routing_key_file": body["routing_key"] == key,
    "dedup key": bool(body.get("dedup_key")),
    "severity critical": body["payload"]["severity"] == "critical",
    "device in details": details.get("device") == "mlx5_0/1",
    "netdev in details": details.get("netdev") == "ens1f0np0",
    "node as source": body["payload"]["source"] == node == details.get("instance"),
    "summary names the alert": "RoceGidDrift" in body["payload"]["summary"],
    "new index in the description": "now at index: 1 5." in details.get("description", ""),
    "runbook link": any(l["href"].endswith("docs/runbooks/RoceGidDrift.md") for l in body.get("links", [])),
}
failed = [name for name, ok in checks.items() if not ok]
print("trigger checks:", "all passed" if not failed else "FAILED %s" % failed)
sys.exit(1 if failed else 0)
EOF
dedup_key=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["body"]["dedup_key"])' "$trigger")

# --expected-gid-index 3 no longer holds the RoCE v2 GID: the state alert pages too.
e2e_wait_until 20 "a critical trigger for RoceGidIndexMismatch" e2e_pd_has 'e["body"].get("event_action") == "trigger" and e["body"]["payload"]["custom_details"].get("alertname") == "RoceGidIndexMismatch" and e["body"]["payload"]["severity"] == "critical"'
# The address lost in the flap is a warning, on the warning route.
e2e_wait_until 20 "a warning trigger for RoceIpLostDuringFlap" e2e_pd_has 'e["body"].get("event_action") == "trigger" and e["body"]["payload"]["custom_details"].get("alertname") == "RoceIpLostDuringFlap" and e["body"]["payload"]["severity"] == "warning" and e["body"]["payload"]["custom_details"].get("netdev") == "ens1f0np0"'

e2e_log "dashboard: every panel query against Prometheus"
e2e_in_ns python3 "$E2E_HELPERS/dashboard_queries.py" --prometheus "$PROM_URL" --var "instance=$NODE_TARGET" \
  --var 'device=.*' --range 60 --require-data "${DASHBOARD_ALLOW_EMPTY[@]}" \
  "$E2E_SOURCE_DIR/deploy/grafana/rocewatch-dashboard.json" || e2e_fail "dashboard queries"

e2e_log "no further move: waiting for the drift window (30 min scaled to 30 s) to pass"
resolved="e[\"body\"].get(\"event_action\") == \"resolve\" and e[\"body\"].get(\"dedup_key\") == \"$dedup_key\""
e2e_wait_until 90 "a PagerDuty resolve for $dedup_key" e2e_pd_has "$resolved"
e2e_log "resolve: $(e2e_pd_events "$resolved" | sed -n 1p)"

e2e_rules_healthy || e2e_fail "a rule failed to evaluate"
self_alerts=$(e2e_pd_events 'e["body"]["payload"]["custom_details"].get("alertname", "").startswith("Rocewatch")')
[ -z "$self_alerts" ] || e2e_fail "rocewatch polled and was scraped all along, yet its self-alerts paged: $self_alerts"
rejected=$(e2e_pd_events 'not e["accepted"]')
[ -z "$rejected" ] || e2e_fail "the PagerDuty stand-in rejected events: $rejected"
if [ -n "${E2E_CAPTURE_DIR:-}" ]; then cp "$PD_EVENTS" "$E2E_CAPTURE_DIR/pagerduty-events.jsonl"; fi
e2e_log "PASS: $(wc -l <"$PD_EVENTS") PagerDuty events, all valid; drift trigger and resolve seen"
