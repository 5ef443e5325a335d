#!/usr/bin/env bash
# End to end: one incident on a node opens one page, and the page says what to fix.
# In a network namespace of its own (loopback only, free ports): `rocewatch run` on a simulated
# two-rail node (fixture sysfs + veth RNICs, simulated_node.sh), Prometheus scraping it every second
# with the shipped rules (windows divided by 60 in a generated copy; the shipped file is untouched),
# Alertmanager with the shipped configuration (its PagerDuty `url` pointed at a local Events v2
# stand-in, a test routing_key_file), and the stand-in.
#
# The incident: both rails flap. On rail 0 NetworkManager removes and re-adds the address while a
# job holds its GIDs, so its RoCE v2 GID moves from index 3 to 5; on rail 1 the address never comes
# back. That raises RoceGidDrift, RoceIpMissing and RoceGidIndexMismatch (critical), RoceLinkDown,
# RoceIpLostDuringFlap and RoceGidHoles (warnings). The test asserts:
#   - exactly one PagerDuty incident (one dedup key) for the node, critical, listing both broken
#     rails: rail 0's drift with the old and new index and its netdev, rail 1's missing address;
#     routing key, runbook;
#   - no warning reached PagerDuty (warnings go to the non-paging receiver);
#   - the index mismatch the drift and the missing address explain is inhibited;
#   - `rocewatch diagnose --daemon` reports the drift and the missing address, and `--npd` says
#     NonOK (exit 1);
#   - every dashboard query runs against the real Prometheus; the incident resolves once the drift
#     window passes and the address is back.
# Everything is stopped and removed at the end, even on failure (trap).
#
# Exit 77 (skip) without root / network namespaces, or when prometheus, prometheus-alertmanager,
# promtool, amtool, curl or python3 is missing. Set E2E_CAPTURE_DIR to keep the PagerDuty events.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"
source "$(dirname "$0")/simulated_node.sh"

e2e_require_commands prometheus prometheus-alertmanager promtool amtool curl python3
e2e_setup 300
sim_node_create 2
# The simulated rails' veth peers send no LLDP: no rail has a leaf switch, the leaf row is empty.
DASHBOARD_ALLOW_EMPTY=(--allow-empty "variable: switch" --allow-empty "Leaf switches now"
  --allow-empty "Nodes with link flaps per leaf (5m)" --allow-empty 'Link quality of the rails on $switch'
  --allow-empty "Nodes paused by the fabric per leaf (PFC rx storm)")
e2e_start_receiver
e2e_start_alertmanager
sim_node_start_daemon --interval 1s --gid-source sysfs --log-level info --expected-gid-index 3 \
  --ip-missing-grace 2s
sim_traffic_start
e2e_start_prometheus "$NODE_TARGET"
e2e_log "namespace $E2E_NETNS: rocewatch $NODE_TARGET, prometheus $PROM_URL, alertmanager $AM_URL, receiver $PD_URL"

e2e_wait_until 30 "rocewatch scraped" e2e_prom_has 'up{job="rocewatch"} == 1'
e2e_wait_until 30 "the RNICs' carrier in Prometheus" e2e_prom_has 'rocewatch_netdev_carrier{netdev="ens2f0np0"} == 1'
e2e_wait_until 10 "healthy rules" e2e_rules_healthy
e2e_wait_until 40 "a learned traffic baseline" e2e_prom_has 'rocewatch_traffic_baseline_bytes_per_second{device="mlx5_0"} > 0'
e2e_prom_has 'rocewatch_gid_info{device="mlx5_0",index="3",type="roce_v2"}' || e2e_fail "no RoCE v2 GID at index 3 before the flap"
e2e_wait_rule_evaluations 3 "a healthy node's rules evaluated on its data"
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "a healthy node paged: $(e2e_pd_events 'True')"

sim_flap_networkmanager
sim_flap_address_lost 1

e2e_wait_until 20 "the move in Prometheus" e2e_prom_has 'rocewatch_gid_info{device="mlx5_0",index="5",type="roce_v2"}'
e2e_wait_until 20 "the drift's indices in Prometheus" e2e_prom_has 'rocewatch_gid_last_drift_info{device="mlx5_0",old_index="3",new_index="5"}'
e2e_wait_until 30 "the missing address in Prometheus" e2e_prom_has 'rocewatch_ip_missing_address_info{netdev="ens2f0np0",address="10.0.1.2/24"}'

triggers='e["body"].get("event_action") == "trigger"'
# One page for the node: it lists rail 0's drift, then rail 1's missing address too (that fires
# after its grace period and `for`).
drift_page="$triggers and 'RoceGidDrift' in e['body']['payload']['custom_details'].get('alerts', '')"
missing_page="$triggers and 'RoceIpMissing' in e['body']['payload']['custom_details'].get('alerts', '')"
e2e_wait_until 90 "a PagerDuty page of the drift" e2e_pd_has "$drift_page"
e2e_wait_until 90 "a PagerDuty page of the missing address" e2e_pd_has "$missing_page"
# Let Alertmanager flush a few more group intervals (2 s in the test copy): nothing else may page.
e2e_wait_rule_evaluations 8 "nothing else pages"
trigger=$(e2e_pd_events "$drift_page" | tail -n 1)
missing_trigger=$(e2e_pd_events "$missing_page" | tail -n 1)
e2e_log "the node's latest page with rail 0's drift: $trigger"
e2e_log "the node's latest page with rail 1's missing address: $missing_trigger"
python3 - "$PD_EVENTS" "$trigger" "$E2E_ROUTING_KEY" "$NODE_TARGET" "$missing_trigger" <<'EOF' || e2e_fail "the page is not what the on-call engineer must receive"
import json, sys
events_path, record, key, node = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
missing = json.loads(sys.argv[5])["body"]
events = [json.loads(line) for line in open(events_path, encoding="utf-8")]
triggers = [e for e in events if e["body"].get("event_action") == "trigger"]
body = record["body"]
details = body["payload"]["custom_details"]
def text_of(b):
    d = b["payload"]["custom_details"]
    return b["payload"]["summary"] + "\n" + d.get("alerts", "") + "\n" + d.get("description", "")
text = text_of(body) + "\n" + text_of(missing)
checks = {
    "exactly one incident (dedup key) for the node's two broken rails":
        len({e["body"]["dedup_key"] for e in triggers}) == 1 and body["dedup_key"] == missing["dedup_key"],
    "the latest page lists both rails":
        {"ens1f0np0", "ens2f0np0"} <= set(triggers[-1]["body"]["payload"]["custom_details"]["netdev"].split()),
    "every trigger is critical (no warning paged)":
        all(e["body"]["payload"]["severity"] == "critical" for e in triggers),
    "accepted by the stand-in": all(e["accepted"] for e in events),
    "routing key from routing_key_file": body["routing_key"] == key,
    "node as source": body["payload"]["source"] == node == details.get("instance"),
    # One incident: the summary is its first firing alert's and counts the others; the details
    # list them all.
    "the summary names an alert of the node and counts them":
        any(n in triggers[-1]["body"]["payload"]["summary"] for n in ("RoceGidDrift", "RoceIpMissing"))
        and triggers[-1]["body"]["payload"]["summary"].endswith("(2 alerts)"),
    "the details list the drift and the missing address":
        all(n in triggers[-1]["body"]["payload"]["custom_details"].get("alerts", "")
            for n in ("RoceGidDrift", "RoceIpMissing")),
    "old and new index in the text": "from index 3 to 5" in text,
    "netdev of the drift in the text": "ens1f0np0" in text,
    "the missing address in the text": "10.0.1.2/24" in text,
    "netdev of the missing address in the text": "ens2f0np0" in text,
    # The pinned index may page first (its `for` ends before the missing address's grace and
    # `for`): it is in the node's incident, and once its cause fires it is muted.
    "inhibited: the index mismatch is not in the latest page":
        "RoceGidIndexMismatch" not in details.get("alerts", "")
        and "RoceGidIndexMismatch" not in missing["payload"]["custom_details"].get("alerts", ""),
    "runbook link": any("docs/runbooks/Roce" in l["href"] for l in body.get("links", [])),
}
failed = [name for name, ok in checks.items() if not ok]
print("page checks:", "all passed" if not failed else "FAILED %s" % failed)
print("%d trigger events, dedup keys %s" % (len(triggers), sorted({e["body"]["dedup_key"] for e in triggers})))
sys.exit(1 if failed else 0)
EOF
dedup_key=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["body"]["dedup_key"])' "$trigger")

# Alertmanager itself: the warnings are there (not paged), the mismatch is muted by its cause.
e2e_in_ns curl -fsS --max-time 5 "$AM_URL/api/v2/alerts" | python3 -c '
import json, sys
alerts = json.load(sys.stdin)
by_name = {}
for a in alerts:
    by_name.setdefault(a["labels"]["alertname"], []).append(a)
problems = []
for a in by_name.get("RoceGidIndexMismatch", []):
    if a["status"]["state"] != "suppressed" or not a["status"]["inhibitedBy"]:
        problems.append("RoceGidIndexMismatch %s is not inhibited" % a["labels"].get("device"))
warnings = [a for a in alerts if a["labels"].get("severity") == "warning"]
if not warnings:
    problems.append("no warning alert in Alertmanager (RoceLinkDown / RoceIpLostDuringFlap expected)")
for a in warnings:
    if [r["name"] for r in a["receivers"]] != ["rocewatch-warnings"]:
        problems.append("%s goes to %s" % (a["labels"]["alertname"], a["receivers"]))
print("alertmanager: %s" % sorted((n, len(v)) for n, v in by_name.items()))
print("alertmanager checks:", "all passed" if not problems else "FAILED %s" % problems)
sys.exit(1 if problems else 0)' || e2e_fail "Alertmanager's view of the incident"

e2e_log "diagnose --daemon: the one-shot report merges the daemon's live findings"
# The node's own host root: no process of the machine running the test is judged (one carrying
# NCCL_IB_GID_INDEX would otherwise name its own finding on the NPD line).
diagnose=(e2e_in_ns "$ROCEWATCH_BINARY" diagnose --host-root "$SIM_HOST_ROOT" --gid-source sysfs --daemon "http://$NODE_TARGET")
status=0
"${diagnose[@]}" --json >"$E2E_DIR/diagnose.json" 2>"$E2E_DIR/diagnose.err" || status=$?
[ "$status" -eq 2 ] || e2e_fail "diagnose --daemon exited $status, expected 2 (critical): $(cat "$E2E_DIR/diagnose.err")"
python3 - "$E2E_DIR/diagnose.json" <<'EOF' || e2e_fail "diagnose --daemon does not report the incident"
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
findings = report["findings"]
def has(check, subject, *words):
    return any(f["check"] == check and f["subject"] == subject and all(w in f["message"] for w in words)
               for f in findings)
checks = {
    "status critical": report["status"] == "critical",
    "the drift with its indices": has("gid_drift", "mlx5_0/1", "from index 3 to 5"),
    "the missing address": has("ip_missing_after_flap", "ens2f0np0", "10.0.1.2/24"),
    "the merge is said": any(f["check"] == "daemon" for f in findings),
}
failed = [name for name, ok in checks.items() if not ok]
print("diagnose checks:", "all passed" if not failed else "FAILED %s\n%s" % (failed, json.dumps(findings, indent=1)))
sys.exit(1 if failed else 0)
EOF
status=0
npd=$("${diagnose[@]}" --npd 2>/dev/null) || status=$?
e2e_log "diagnose --npd: exit $status: $npd"
[ "$status" -eq 1 ] || e2e_fail "diagnose --npd exited $status, expected 1 (NonOK)"
case "$npd" in *gid_drift*|*ip_missing_after_flap*) ;; *) e2e_fail "the NPD line names neither the drift nor the missing address: $npd" ;; esac

e2e_log "dashboard: every panel query against Prometheus"
e2e_in_ns python3 "$E2E_HELPERS/dashboard_queries.py" --prometheus "$PROM_URL" --var "instance=$NODE_TARGET" \
  --var 'device=.*' --var 'switch=.*' --range 60 --require-data "${DASHBOARD_ALLOW_EMPTY[@]}" \
  "$E2E_SOURCE_DIR/deploy/grafana/rocewatch-dashboard.json" || e2e_fail "dashboard queries"

e2e_log "recovery: the job exits, rail 0's address is re-added at 2/3 (a move back: the drift window restarts), rail 1's returns"
sim_gid_clear 4
sim_gid_clear 5
sim_gid_set 2 "$SIM_IPV4_GID" "IB/RoCE v1"
sim_gid_set 3 "$SIM_IPV4_GID" "RoCE v2"
e2e_in_ns ip addr add 10.0.1.2/24 dev ens2f0np0
rail1="$SIM_SYSFS/class/infiniband/mlx5_1/ports/1"
SIM_PORT=$rail1 SIM_NETDEV=ens2f0np0 sim_gid_set 2 0000:0000:0000:0000:0000:ffff:0a00:0102 "IB/RoCE v1"
SIM_PORT=$rail1 SIM_NETDEV=ens2f0np0 sim_gid_set 3 0000:0000:0000:0000:0000:ffff:0a00:0102 "RoCE v2"
e2e_log "waiting for the drift window (30 min scaled to 30 s) to pass without another move"
resolved="e[\"body\"].get(\"event_action\") == \"resolve\" and e[\"body\"].get(\"dedup_key\") == \"$dedup_key\""
e2e_wait_until 120 "a PagerDuty resolve for $dedup_key" e2e_pd_has "$resolved"
e2e_log "resolve: $(e2e_pd_events "$resolved" | sed -n 1p)"

e2e_rules_healthy || e2e_fail "a rule failed to evaluate"
! e2e_prom_has 'ALERTS{alertname=~"Rocewatch.*"}' ||
  e2e_fail "rocewatch polled and was scraped all along, yet its self-alerts fired: $(e2e_prom_query 'ALERTS{alertname=~"Rocewatch.*"}')"
keys=$(e2e_pd_events "$triggers" | python3 -c 'import json, sys; print(len({json.loads(l)["body"]["dedup_key"] for l in sys.stdin}))')
[ "$keys" = 1 ] || e2e_fail "$keys PagerDuty incidents for one node (two broken rails)"
rejected=$(e2e_pd_events 'not e["accepted"]')
[ -z "$rejected" ] || e2e_fail "the PagerDuty stand-in rejected events: $rejected"
if [ -n "${E2E_CAPTURE_DIR:-}" ]; then cp "$PD_EVENTS" "$E2E_CAPTURE_DIR/pagerduty-events.jsonl"; fi
e2e_log "PASS: $(wc -l <"$PD_EVENTS") PagerDuty events, one incident for the node's two broken rails (critical; indices 3 -> 5 on ens1f0np0; 10.0.1.2/24 on ens2f0np0), resolved"
