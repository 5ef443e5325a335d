#!/usr/bin/env bash
# How fast a page reaches PagerDuty, measured on a real Alertmanager running the shipped
# deploy/alertmanager/alertmanager.yml with its shipped timers (group_wait, group_interval: not
# shortened, unlike the other end-to-end tests), the PagerDuty stand-in recording when each event
# arrives. Alerts are posted to Alertmanager's API as Prometheus would send them.
#   1. RoceGidDrift on n1's mlx5_0 (ens1f0np0): the node's first page;
#   2. while that incident is open, at once:
#      - RoceTrafficCollapsed on n1's mlx5_3 (ens4f0np0), another rail of the same node: it joins
#        n1's open incident (the same dedup key, no new incident), reaches PagerDuty within 1
#        minute, and is not inhibited by the drift on mlx5_0;
#      - RoceIpMissing on n2: another node, an incident of its own (another dedup key), paged
#        within 1 minute while n1's is open.
# Wall time: about 60 s (a group_wait of 10 s, then up to one group_interval of 45 s).
# Exit 77 when prometheus-alertmanager, amtool, curl or python3 is missing.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"

e2e_require_commands prometheus-alertmanager amtool curl python3
e2e_setup 200
e2e_start_receiver
E2E_AM_KEEP_TIMERS=1 e2e_start_alertmanager

# post NAME SEVERITY LABEL=VALUE...: sends one firing alert; prints the Unix time it was sent.
post() {
  local body
  body=$(python3 - "$@" <<'PY'
import json, sys
name, severity, *labels = sys.argv[1:]
l = dict(kv.split("=", 1) for kv in labels)
l.update(alertname=name, severity=severity)
print(json.dumps([{"labels": l, "annotations": {"summary": "%s %s" % (name, l.get("netdev", "")),
                   "runbook_url": "https://example.com/%s.md" % name}}]))
PY
)
  curl -fsS --max-time 5 -H 'Content-Type: application/json' -d "$body" "$AM_URL/api/v2/alerts" >/dev/null
  python3 -c 'import time; print("%.3f" % time.time())'
}
# arrival PREDICATE: the receive time of the first event matching PREDICATE (e2e_pd_events).
arrival() {
  e2e_pd_events "$1" | head -n 1 | python3 -c 'import json, sys; print("%.3f" % json.loads(sys.stdin.read())["received_at"])'
}
# trigger_with NAME INSTANCE: a trigger of INSTANCE's incident that lists the alert NAME.
trigger_with() {
  echo "e['body'].get('event_action') == 'trigger' and '$1' in e['body']['payload']['custom_details'].get('alerts', '') and e['body']['payload']['custom_details'].get('instance') == '$2'"
}
seconds() { python3 -c 'import sys; print("%.1f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$1" "$2"; }
n1=(cluster=a instance=n1:9879)
n2=(cluster=a instance=n2:9879)

sent1=$(post RoceGidDrift critical "${n1[@]}" device=mlx5_0 port=1 netdev=ens1f0np0)
e2e_wait_until 40 "the node's first page" e2e_pd_has "$(trigger_with RoceGidDrift n1:9879)"
first=$(seconds "$sent1" "$(arrival "$(trigger_with RoceGidDrift n1:9879)")")
e2e_log "n1 (rail ens1f0np0): paged ${first} s after the alert reached Alertmanager"

# Alertmanager re-sends the open incident's alerts with their next notifications: keep them fresh.
sent2=$(post RoceTrafficCollapsed critical "${n1[@]}" device=mlx5_3 port=1 netdev=ens4f0np0 state=collapsed)
sent3=$(post RoceIpMissing critical "${n2[@]}" netdev=ens1f0np0)
post RoceGidDrift critical "${n1[@]}" device=mlx5_0 port=1 netdev=ens1f0np0 >/dev/null
both() { e2e_pd_has "$(trigger_with RoceTrafficCollapsed n1:9879)" && e2e_pd_has "$(trigger_with RoceIpMissing n2:9879)"; }
e2e_wait_until 70 "n1's second rail in its incident and n2's page" both
second=$(seconds "$sent2" "$(arrival "$(trigger_with RoceTrafficCollapsed n1:9879)")")
third=$(seconds "$sent3" "$(arrival "$(trigger_with RoceIpMissing n2:9879)")")
e2e_log "rail ens4f0np0 of n1 (its incident open): in PagerDuty ${second} s after its alert"
e2e_log "n2 (n1's incident open): paged ${third} s after its alert"

python3 - "$PD_EVENTS" "$first" "$second" "$third" <<'PY' || e2e_fail "paging times or incidents"
import json, sys
events = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
first, second, third = (float(x) for x in sys.argv[2:5])
triggers = [e["body"] for e in events if e["body"].get("event_action") == "trigger"]
keys = {}
for t in triggers:
    keys.setdefault(t["payload"]["custom_details"]["instance"], set()).add(t["dedup_key"])
n1_last = [t for t in triggers if t["payload"]["custom_details"]["instance"] == "n1:9879"][-1]
checks = {
    "first page within 1 minute": first <= 60,
    "a second rail of the node in its incident within 1 minute": second <= 60,
    "another node paged within 1 minute": third <= 60,
    "one incident per node": all(len(k) == 1 for k in keys.values()) and set(keys) == {"n1:9879", "n2:9879"},
    "the nodes' incidents differ": len({k for ks in keys.values() for k in ks}) == 2,
    "n1's incident lists both rails": set(n1_last["payload"]["custom_details"]["netdev"].split()) == {"ens1f0np0", "ens4f0np0"}
        and "RoceGidDrift" in n1_last["payload"]["custom_details"]["alerts"]
        and "RoceTrafficCollapsed" in n1_last["payload"]["custom_details"]["alerts"],
    "the summary counts the node's alerts": n1_last["payload"]["summary"].endswith("(2 alerts)"),
    "accepted by the stand-in": all(e["accepted"] for e in events),
}
failed = [n for n, ok in checks.items() if not ok]
print("timing checks:", "all passed" if not failed else "FAILED %s" % failed)
sys.exit(1 if failed else 0)
PY
e2e_log "PASS: first page ${first} s, a second rail joining the node's incident ${second} s, another node ${third} s (shipped timers)"
