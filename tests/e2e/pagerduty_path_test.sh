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

# ---- SCAFFOLDING: the node is a static exposition (scaffold_node.sh) served by http.server ----
NODE_DIR="$E2E_DIR/node"
mkdir -p "$NODE_DIR"
set_node_state() { echo "$*" >"$NODE_DIR/state.tmp" && mv "$NODE_DIR/state.tmp" "$NODE_DIR/state"; }

node_start() {
  local port
  set_node_state healthy
  e2e_start node-writer bash "$E2E_HELPERS/scaffold_node.sh" "$NODE_DIR"
  port=$(e2e_free_port)
  e2e_start node python3 -m http.server "$port" --bind 127.0.0.1 --directory "$NODE_DIR"
  NODE_TARGET="127.0.0.1:$port"
  e2e_wait_until 20 "the scaffold node" e2e_http_ok "http://$NODE_TARGET/metrics"
}
node_flap() { set_node_state flapped; }
node_return_with_moved_gid() { set_node_state drifted "$(date +%s)"; }

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
trigger=$(e2e_pd_events "$drift_trigger" | sed -n 1p)
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
e2e_log "resolve: $(e2e_pd_events "e[\"body\"].get(\"event_action\") == \"resolve\" and e[\"body\"].get(\"dedup_key\") == \"$dedup_key\"" | sed -n 1p)"

e2e_rules_healthy || e2e_fail "a rule failed to evaluate"
self_alerts=$(e2e_pd_events 'e["body"]["payload"]["custom_details"].get("alertname", "").startswith("Rocewatch")')
[ -z "$self_alerts" ] || e2e_fail "the node polled and was scraped all along, yet rocewatch self-alerts paged: $self_alerts"
rejected=$(e2e_pd_events 'not e["accepted"]')
[ -z "$rejected" ] || e2e_fail "the PagerDuty stand-in rejected events: $rejected"
if [ -n "${E2E_CAPTURE_DIR:-}" ]; then cp "$PD_EVENTS" "$E2E_CAPTURE_DIR/pagerduty-events.jsonl"; fi
e2e_log "PASS: $(wc -l <"$PD_EVENTS") PagerDuty events, all valid; drift trigger and resolve seen"
