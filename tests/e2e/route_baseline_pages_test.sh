#!/usr/bin/env bash
# End to end: policy routes present when the daemon starts are its baseline; flushed after the
# start, they page critical, once, and resolve once they are back.
# In a network namespace of its own (loopback only, free ports): a simulated one-rail node
# (fixture sysfs + veth RNIC ens1f0np0 with 10.0.0.2/24, simulated_node.sh) whose policy routing
# exists BEFORE `rocewatch run` starts: `default via 10.0.0.1 dev ens1f0np0 table 103` and
# `from 10.0.0.2 lookup 103`. Prometheus with the shipped rules (windows divided by 20 in a
# generated copy: `for: 1m` is 3 s, keep_firing_for 2m45s is 8 s), Alertmanager with the shipped
# configuration pointed at the PagerDuty Events v2 stand-in, and the stand-in.
#
# After the start, `ip route flush table 103`. The alert is RocePolicyRulesMissing (critical:
# deploy/prometheus/rocewatch-rules.yaml, docs/alerts.md), which covers missing routes too, so it
# reaches PagerDuty through the critical route. Asserted:
#   - the daemon: rocewatch_policy_routes_missing{netdev="ens1f0np0"} 1 within 1 s of the flush
#     (measured by one process that flushes, then polls every 20 ms), rocewatch_policy_rules_missing
#     0; the critical finding policy_routing_missing on ens1f0np0 (/api/v1/findings);
#   - Prometheus: RocePolicyRulesMissing firing on ens1f0np0; Alertmanager: active on
#     pagerduty-critical;
#   - PagerDuty, after more evaluations and group intervals: exactly one event, a critical trigger
#     of the node's incident listing RocePolicyRulesMissing on ens1f0np0 alone, with "routes
#     missing 1", no sooner than the rule's `for` after the flush.
# Then the route comes back: the metric is 0 again within 1 s, and the incident resolves once, no
# sooner than keep_firing_for after the route came back: two events in all, one dedup key.
#
# Wall time about 57 s here, beside another e2e test on a loaded machine (the overall deadline is
# 120 s). Exit 77 (skip) without root /
# network namespaces, or when prometheus, prometheus-alertmanager, promtool, amtool, curl or
# python3 is missing.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"
source "$(dirname "$0")/simulated_node.sh"

e2e_require_commands prometheus prometheus-alertmanager promtool amtool curl python3
e2e_setup 120
E2E_RULE_SCALE=20
FOR=3              # 1m / 20
KEEP_FIRING_FOR=8  # 2m45s / 20
FLUSH_BOUND=1      # seconds from the flush to the daemon's metric
TABLE=103
sim_node_create 1
ROUTE=(default via 10.0.0.1 dev "$SIM_NETDEV" table "$TABLE")
e2e_in_ns ip route add "${ROUTE[@]}"
e2e_in_ns ip rule add from 10.0.0.2 lookup "$TABLE" prio 1000

e2e_start_receiver
e2e_start_alertmanager
sim_node_start_daemon --interval 1s --gid-source sysfs --log-level info
e2e_start_prometheus "$NODE_TARGET"
e2e_log "namespace $E2E_NETNS: rocewatch $NODE_TARGET, prometheus $PROM_URL, alertmanager $AM_URL"

e2e_wait_until 30 "rocewatch scraped" e2e_prom_has 'up{job="rocewatch"} == 1'
e2e_wait_until 10 "healthy rules" e2e_rules_healthy
ROUTES_MISSING="rocewatch_policy_routes_missing{netdev=\"$SIM_NETDEV\"}"
sim_wait_daemon_sees "the policy routing, nothing missing" "$ROUTES_MISSING" 0
sim_daemon_metric_is "rocewatch_policy_rules_missing{netdev=\"$SIM_NETDEV\"}" 0 ||
  e2e_fail "a policy rule is missing before anything changed"
e2e_wait_rule_evaluations 2 "a healthy node's rules evaluated on its data"
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "a healthy node paged: $(e2e_pd_events 'True')"

e2e_log "ip route flush table $TABLE: the route the daemon found at its start goes"
flushed=$(date +%s.%N)
seen=$(sim_daemon_sees_within "$FLUSH_BOUND" "$ROUTES_MISSING" 1 ip route flush table "$TABLE") ||
  e2e_fail "$ROUTES_MISSING not 1 within ${FLUSH_BOUND} s of the flush (${seen} s): the start's routes are not the baseline"
e2e_log "the daemon saw the route missing ${seen} s after the flush"
sim_daemon_metric_is "rocewatch_policy_rules_missing{netdev=\"$SIM_NETDEV\"}" 0 ||
  e2e_fail "the rule, which stayed, is counted missing"
e2e_in_ns curl -fsS --max-time 2 "http://$NODE_TARGET/api/v1/findings" | python3 -c '
import json, sys
findings = [f for f in json.load(sys.stdin)["findings"] if f["check"] == "policy_routing_missing"]
print("daemon findings policy_routing_missing: %s" % json.dumps(findings))
sys.exit(0 if [(f["subject"], f["severity"]) for f in findings] == [(sys.argv[1], "critical")] else 1)' "$SIM_NETDEV" ||
  e2e_fail "the daemon's findings: expected policy_routing_missing on $SIM_NETDEV alone, critical"

e2e_wait_until 30 "RocePolicyRulesMissing firing on $SIM_NETDEV" \
  e2e_prom_has "ALERTS{alertstate=\"firing\",alertname=\"RocePolicyRulesMissing\",netdev=\"$SIM_NETDEV\"}"
triggers='e["body"].get("event_action") == "trigger"'
e2e_wait_until 30 "the page" e2e_pd_has "$triggers"
# Alertmanager flushes a group interval (2 s in the test copy) more than once: nothing else pages.
e2e_wait_rule_evaluations 6 "nothing else pages"
e2e_in_ns curl -fsS --max-time 5 "$AM_URL/api/v2/alerts" | python3 -c '
import json, sys
alerts = [a for a in json.load(sys.stdin) if a["labels"]["alertname"] == "RocePolicyRulesMissing"]
print("alertmanager: %s" % [(a["labels"].get("netdev"), a["status"]["state"], [r["name"] for r in a["receivers"]])
                            for a in alerts])
ok = (len(alerts) == 1 and alerts[0]["labels"].get("netdev") == sys.argv[1]
      and alerts[0]["status"]["state"] == "active"
      and [r["name"] for r in alerts[0]["receivers"]] == ["pagerduty-critical"])
sys.exit(0 if ok else 1)' "$SIM_NETDEV" ||
  e2e_fail "Alertmanager: expected RocePolicyRulesMissing on $SIM_NETDEV active, on pagerduty-critical"

python3 - "$PD_EVENTS" "$E2E_ROUTING_KEY" "$NODE_TARGET" "$SIM_NETDEV" "$flushed" "$FOR" <<'EOF' ||
import json, sys
events_path, key, node, netdev, flushed, hold = sys.argv[1:]
events = [json.loads(line) for line in open(events_path, encoding="utf-8")]
print("PagerDuty events: %s" % ["%s %s %.1f s after the flush" % (
    e["body"].get("event_action"), e["body"].get("dedup_key", "")[:12], e["received_at"] - float(flushed))
    for e in events])
body = events[0]["body"] if events else {}
payload = body.get("payload", {})
details = payload.get("custom_details", {})
summary = "Policy routing of RNIC %s on %s is gone" % (netdev, node)
checks = {
    "exactly one event": len(events) == 1,
    "a trigger, accepted": body.get("event_action") == "trigger" and all(e["accepted"] for e in events),
    "critical, the node's, the test's routing key": payload.get("severity") == "critical"
        and payload.get("source") == node and body.get("routing_key") == key,
    "RocePolicyRulesMissing on the netdev alone, its summary":
        details.get("alerts") == "RocePolicyRulesMissing (%s): %s\n" % (netdev, summary),
    "the missing route counted": "rules missing 0, routes missing 1" in details.get("description", ""),
    "runbook link": any(l.get("href", "").endswith("docs/runbooks/RocePolicyRulesMissing.md")
                        for l in body.get("links", [])),
    "no sooner than for after the flush":
        bool(events) and events[0]["received_at"] - float(flushed) >= float(hold),
}
failed = [name for name, ok in checks.items() if not ok]
print("page checks:", "all passed" if not failed else "FAILED %s\n%s" % (failed, json.dumps(events, indent=1)))
sys.exit(1 if failed else 0)
EOF
  e2e_fail "PagerDuty did not receive exactly the one page of the flushed table"
dedup_key=$(e2e_pd_first_dedup_key)

e2e_log "the route comes back"
# Taken before the fix: the page must resolve keep_firing_for after it at the earliest.
restored=$(date +%s.%N)
seen=$(sim_daemon_sees_within "$FLUSH_BOUND" "$ROUTES_MISSING" 0 ip route add "${ROUTE[@]}") ||
  e2e_fail "$ROUTES_MISSING not 0 within ${FLUSH_BOUND} s of the route's return (${seen} s)"
e2e_log "the daemon saw the route back ${seen} s after it was added"
e2e_wait_resolve "$dedup_key" "$restored" "$KEEP_FIRING_FOR" "the route came back"
e2e_wait_rule_evaluations 4 "nothing more reaches PagerDuty"
[ "$(e2e_pd_actions)" = "trigger:$dedup_key resolve:$dedup_key" ] ||
  e2e_fail "expected one trigger and one resolve of $dedup_key: $(e2e_pd_actions)"
e2e_check_clean_end
e2e_log "PASS: the flushed table paged once (trigger, resolve $E2E_RESOLVED_AFTER s after the route came back; \
dedup key ${dedup_key:0:12})"
