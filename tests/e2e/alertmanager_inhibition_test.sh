#!/usr/bin/env bash
# The inhibitions of deploy/alertmanager/alertmanager.yml, on a real Alertmanager: alerts are
# posted to its API at once, and the PagerDuty stand-in shows which ones paged.
#   - RoceLinkDown silences RoceTrafficCollapsed on the same port (not on another port);
#   - RoceFabricFlapStorm silences the per-node RoceLinkFlapping / RoceIpLostDuringFlap /
#     RoceLinkDown of its cluster (not of another cluster), never RoceGidDrift.
# Exit 77 when prometheus-alertmanager, amtool, curl or python3 is missing.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"

e2e_require_commands prometheus-alertmanager amtool curl python3
e2e_setup 120
e2e_start_receiver
e2e_start_alertmanager

# alert NAME SEVERITY LABEL=VALUE...: one alert of the Alertmanager v2 API as JSON.
alert() {
  python3 - "$@" <<'EOF'
import json, sys
name, severity, *labels = sys.argv[1:]
l = dict(kv.split("=", 1) for kv in labels)
l.update(alertname=name, severity=severity)
print(json.dumps({"labels": l, "annotations": {"summary": name, "runbook_url":
                  "https://example.com/%s.md" % name}}))
EOF
}
alerts=$(printf '%s,' \
  "$(alert RoceLinkDown warning cluster=a instance=n1:9879 device=mlx5_0 port=1 netdev=ens1f0np0)" \
  "$(alert RoceTrafficCollapsed critical cluster=a instance=n1:9879 device=mlx5_0 port=1 state=collapsed)" \
  "$(alert RoceTrafficCollapsed critical cluster=a instance=n1:9879 device=mlx5_1 port=1 state=collapsed)" \
  "$(alert RoceFabricFlapStorm critical cluster=b)" \
  "$(alert RoceLinkFlapping warning cluster=b instance=n7:9879 netdev=ens1f0np0)" \
  "$(alert RoceIpLostDuringFlap warning cluster=b instance=n8:9879 netdev=ens1f0np0)" \
  "$(alert RoceGidDrift critical cluster=b instance=n8:9879 device=mlx5_0 port=1 netdev=ens1f0np0)" \
  "$(alert RoceLinkFlapping warning cluster=c instance=n9:9879 netdev=ens1f0np0)")
curl -fsS --max-time 5 -H 'Content-Type: application/json' -d "[${alerts%,}]" "$AM_URL/api/v2/alerts" >/dev/null

# paged ALERTNAME INSTANCE [DEVICE]: a trigger reached PagerDuty for it.
paged() {
  e2e_pd_has "e['body']['event_action'] == 'trigger' and e['body']['payload']['custom_details']['alertname'] == '$1' and e['body']['payload']['custom_details']['instance'] == '$2' and '${3:-}' in e['body']['payload']['custom_details']['device']"
}
e2e_wait_until 30 "the uninhibited alerts paged" bash -c "$(declare -f paged e2e_pd_has e2e_pd_events); PD_EVENTS='$PD_EVENTS'
  paged RoceLinkDown n1:9879 mlx5_0 && paged RoceTrafficCollapsed n1:9879 mlx5_1 &&
  paged RoceFabricFlapStorm '' && paged RoceGidDrift n8:9879 && paged RoceLinkFlapping n9:9879"
# Let Alertmanager flush a few more group intervals (2 s in the test copy) before asserting silence.
sleep 6
! paged RoceTrafficCollapsed n1:9879 mlx5_0/1 || e2e_fail "RoceLinkDown did not inhibit the collapse on its port"
! paged RoceLinkFlapping n7:9879 || e2e_fail "the fabric flap storm did not inhibit RoceLinkFlapping"
! paged RoceIpLostDuringFlap n8:9879 || e2e_fail "the fabric flap storm did not inhibit RoceIpLostDuringFlap"
[ -z "$(e2e_pd_events 'not e["accepted"]')" ] || e2e_fail "rejected events: $(e2e_pd_events 'not e["accepted"]')"
e2e_log "PASS: $(wc -l <"$PD_EVENTS") events; inhibited: collapse under link down, per-node flaps under a fabric storm"
