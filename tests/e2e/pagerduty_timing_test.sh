#!/usr/bin/env bash
# How fast a page reaches PagerDuty, measured on a real Alertmanager running the shipped
# deploy/alertmanager/alertmanager.yml with its shipped timers (group_wait, group_interval: not
# shortened, unlike the other end-to-end tests), the PagerDuty stand-in recording when each event
# arrives. Alerts are posted to Alertmanager's API as Prometheus would send them.
#   1. RoceGidDrift on n1's mlx5_0 (ens1f0np0): the rail's first page;
#   2. while that incident is open, RoceTrafficCollapsed on n1's mlx5_3 (ens4f0np0), another rail
#      of the same node: its own incident (another dedup key), paged within 1 minute, and not
#      inhibited by the drift on mlx5_0;
#   3. a new critical on the first rail (RoceIpMissing on ens1f0np0) joins its open incident and
#      reaches PagerDuty within 1 minute.
# Wall time: about 70 s (two group_waits of 10 s and up to one group_interval of 45 s).
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
trigger_with() {
  echo "e['body'].get('event_action') == 'trigger' and '$1' in e['body']['payload']['custom_details'].get('alerts', '') and e['body']['payload']['custom_details'].get('netdev', '').startswith('$2')"
}
seconds() { python3 -c 'import sys; print("%.1f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$1" "$2"; }
n1=(cluster=a instance=n1:9879)

sent1=$(post RoceGidDrift critical "${n1[@]}" device=mlx5_0 port=1 netdev=ens1f0np0)
e2e_wait_until 40 "the first rail's page" e2e_pd_has "$(trigger_with RoceGidDrift ens1f0np0)"
first=$(seconds "$sent1" "$(arrival "$(trigger_with RoceGidDrift ens1f0np0)")")
e2e_log "rail ens1f0np0: paged ${first} s after the alert reached Alertmanager"

# Alertmanager re-sends the open incident's alerts with their next notifications: keep them fresh.
sent2=$(post RoceTrafficCollapsed critical "${n1[@]}" device=mlx5_3 port=1 netdev=ens4f0np0 state=collapsed)
post RoceGidDrift critical "${n1[@]}" device=mlx5_0 port=1 netdev=ens1f0np0 >/dev/null
e2e_wait_until 70 "the second rail's page" e2e_pd_has "$(trigger_with RoceTrafficCollapsed ens4f0np0)"
second=$(seconds "$sent2" "$(arrival "$(trigger_with RoceTrafficCollapsed ens4f0np0)")")
e2e_log "rail ens4f0np0 (same node, first incident open): paged ${second} s after its alert"

sent3=$(post RoceIpMissing critical "${n1[@]}" netdev=ens1f0np0)
post RoceGidDrift critical "${n1[@]}" device=mlx5_0 port=1 netdev=ens1f0np0 >/dev/null
post RoceTrafficCollapsed critical "${n1[@]}" device=mlx5_3 port=1 netdev=ens4f0np0 state=collapsed >/dev/null
e2e_wait_until 70 "the new alert of the open incident in PagerDuty" e2e_pd_has "$(trigger_with RoceIpMissing ens1f0np0)"
third=$(seconds "$sent3" "$(arrival "$(trigger_with RoceIpMissing ens1f0np0)")")
e2e_log "new critical on the open incident of ens1f0np0: reached PagerDuty ${third} s after its alert"

python3 - "$PD_EVENTS" "$first" "$second" "$third" <<'PY' || e2e_fail "paging times or incidents"
import json, sys
events = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
first, second, third = (float(x) for x in sys.argv[2:5])
triggers = [e["body"] for e in events if e["body"].get("event_action") == "trigger"]
keys = {}
for t in triggers:
    keys.setdefault(t["payload"]["custom_details"]["netdev"].split(" ")[0], set()).add(t["dedup_key"])
checks = {
    "first rail paged within 1 minute": first <= 60,
    "second rail paged within 1 minute": second <= 60,
    "new alert of an open incident within 1 minute": third <= 60,
    "one incident per rail": all(len(k) == 1 for k in keys.values()) and set(keys) == {"ens1f0np0", "ens4f0np0"},
    "the rails' incidents differ": len({k for ks in keys.values() for k in ks}) == 2,
    "the drift on mlx5_0 did not mute the collapse on mlx5_3": any(
        "RoceTrafficCollapsed" in t["payload"]["custom_details"]["alerts"] for t in triggers),
    "accepted by the stand-in": all(e["accepted"] for e in events),
}
failed = [n for n, ok in checks.items() if not ok]
print("timing checks:", "all passed" if not failed else "FAILED %s" % failed)
sys.exit(1 if failed else 0)
PY
e2e_log "PASS: first page ${first} s, second rail ${second} s, new alert of an open incident ${third} s (shipped timers)"
