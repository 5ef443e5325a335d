#!/usr/bin/env bash
# The routing and inhibitions of deploy/alertmanager/alertmanager.yml, on a real Alertmanager:
# alerts are posted to its API at once; its API says which are inhibited, the PagerDuty stand-in
# shows what paged.
#   - RoceLinkDown silences the traffic alerts of its port (not of another port);
#   - RoceGidDrift silences RoceGidIndexMismatch / RoceGidIndexInconsistent and the traffic alerts
#     of its own port only: a drift on mlx5_0 leaves a collapse on mlx5_3 paging; RoceIpMissing
#     silences the mismatch and the traffic alerts of its netdev (not of another);
#   - RoceFabricFlapStorm silences the per-node RoceLinkFlapping / RoceIpLostDuringFlap /
#     RoceLinkDown of its cluster (not of another cluster), never RoceGidDrift, and the
#     RoceLeafFlapStorm of its cluster;
#   - a leaf alert silences the per-rail alerts of its own kind on its own leaf (equal cluster and
#     switch): RoceLeafFlapStorm the flap / IP-loss / link-down warnings of a node on leaf-a, not
#     those of a node on leaf-b, of a rail without a neighbor (no switch label) or of leaf-a in
#     another cluster, nor the rail's link-quality warning or GID drift; RoceLeafLinkQualityFailing
#     the RoceLinkQualityFailing / RoceFecUncorrectable pages of its leaf only; RoceLeafPfcStorm
#     the rx RocePfcStorm of its leaf, never a tx storm (the origin); RoceRailMiscabled the
#     RoceRailLeafInconsistent of its own rail. Each leaf pages as an incident of its own;
#   - critical alerts page once per node (one incident, every uninhibited alert of the node listed
#     whatever its rail, no inhibited one); warnings never reach PagerDuty (receiver
#     rocewatch-warnings), but RoceTrafficDegraded which pages at warning severity (receiver
#     pagerduty-low-urgency).
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
print(json.dumps({"labels": l, "annotations": {"summary": name + " " + l.get("device", ""),
                  "runbook_url": "https://example.com/%s.md" % name}}))
EOF
}
alerts=$(printf '%s,' \
  "$(alert RoceLinkDown warning cluster=a instance=n1:9879 device=mlx5_0 port=1 netdev=ens1f0np0)" \
  "$(alert RoceTrafficCollapsed critical cluster=a instance=n1:9879 device=mlx5_0 port=1 netdev=ens1f0np0 state=collapsed)" \
  "$(alert RoceTrafficCollapsed critical cluster=a instance=n1:9879 device=mlx5_1 port=1 netdev=ens2f0np0 state=collapsed)" \
  "$(alert RoceGidDrift critical cluster=a instance=n2:9879 device=mlx5_0 port=1 netdev=ens1f0np0)" \
  "$(alert RoceGidIndexMismatch critical cluster=a instance=n2:9879 device=mlx5_0 port=1 netdev=ens1f0np0)" \
  "$(alert RoceGidIndexInconsistent warning cluster=a instance=n2:9879 device=mlx5_0 port=1 netdev=ens1f0np0 index=5)" \
  "$(alert RoceGidIndexMismatch critical cluster=a instance=n2:9879 device=mlx5_1 port=1 netdev=ens2f0np0)" \
  "$(alert RoceTrafficCollapsed critical cluster=a instance=n2:9879 device=mlx5_3 port=1 netdev=ens4f0np0 state=collapsed)" \
  "$(alert RoceTrafficCollapsed critical cluster=a instance=n2:9879 device=mlx5_0 port=1 netdev=ens1f0np0 state=collapsed)" \
  "$(alert RoceTrafficDegraded warning cluster=a instance=n2:9879 device=mlx5_2 port=1 netdev=ens3f0np0 state=degraded)" \
  "$(alert RoceTrafficCollapsed critical cluster=a instance=n3:9879 device=mlx5_1 port=1 netdev=ens2f0np0 state=collapsed)" \
  "$(alert RoceIpMissing critical cluster=a instance=n3:9879 netdev=ens2f0np0)" \
  "$(alert RoceGidIndexMismatch critical cluster=a instance=n3:9879 device=mlx5_1 port=1 netdev=ens2f0np0)" \
  "$(alert RoceGidIndexMismatch critical cluster=a instance=n3:9879 device=mlx5_2 port=1 netdev=ens3f0np0)" \
  "$(alert RoceFabricFlapStorm critical cluster=b)" \
  "$(alert RoceLinkFlapping warning cluster=b instance=n7:9879 netdev=ens1f0np0)" \
  "$(alert RoceIpLostDuringFlap warning cluster=b instance=n8:9879 netdev=ens1f0np0)" \
  "$(alert RoceGidDrift critical cluster=b instance=n8:9879 device=mlx5_0 port=1 netdev=ens1f0np0)" \
  "$(alert RoceLinkFlapping warning cluster=c instance=n9:9879 netdev=ens1f0np0)" \
  "$(alert RoceLeafFlapStorm critical cluster=b switch=leaf-x)" \
  "$(alert RoceLeafFlapStorm critical cluster=d switch=leaf-a)" \
  "$(alert RoceLinkFlapping warning cluster=d instance=n10:9879 netdev=ens1f0np0 switch=leaf-a)" \
  "$(alert RoceIpLostDuringFlap warning cluster=d instance=n10:9879 netdev=ens1f0np0 switch=leaf-a)" \
  "$(alert RoceLinkDown warning cluster=d instance=n10:9879 device=mlx5_1 port=1 netdev=ens2f0np0 switch=leaf-a)" \
  "$(alert RoceLinkQualityDegraded warning cluster=d instance=n10:9879 netdev=ens1f0np0 switch=leaf-a state=degraded)" \
  "$(alert RoceGidDrift critical cluster=d instance=n10:9879 device=mlx5_0 port=1 netdev=ens1f0np0)" \
  "$(alert RoceLinkQualityFailing critical cluster=d instance=n10:9879 netdev=ens3f0np0 switch=leaf-a state=failing)" \
  "$(alert RoceLinkFlapping warning cluster=d instance=n11:9879 netdev=ens1f0np0 switch=leaf-b)" \
  "$(alert RoceLinkFlapping warning cluster=d instance=n12:9879 netdev=ens1f0np0)" \
  "$(alert RoceLinkFlapping warning cluster=e instance=n13:9879 netdev=ens1f0np0 switch=leaf-a)" \
  "$(alert RoceLeafLinkQualityFailing critical cluster=d switch=leaf-b)" \
  "$(alert RoceLinkQualityFailing critical cluster=d instance=n11:9879 netdev=ens2f0np0 switch=leaf-b state=failing)" \
  "$(alert RoceFecUncorrectable critical cluster=d instance=n11:9879 netdev=ens2f0np0 switch=leaf-b)" \
  "$(alert RoceLeafPfcStorm warning cluster=d switch=leaf-a)" \
  "$(alert RocePfcStorm warning cluster=d instance=n10:9879 netdev=ens1f0np0 switch=leaf-a priority=3 direction=rx)" \
  "$(alert RocePfcStorm warning cluster=d instance=n14:9879 netdev=ens1f0np0 switch=leaf-a priority=3 direction=tx)" \
  "$(alert RoceRailMiscabled critical cluster=d instance=n15:9879 netdev=ens1f0np0)" \
  "$(alert RoceRailLeafInconsistent warning cluster=d instance=n15:9879 netdev=ens1f0np0 switch=leaf-c)" \
  "$(alert RoceRailLeafInconsistent warning cluster=d instance=n15:9879 netdev=ens2f0np0 switch=leaf-c)")
curl -fsS --max-time 5 -H 'Content-Type: application/json' -d "[${alerts%,}]" "$AM_URL/api/v2/alerts" >/dev/null

# paged INSTANCE ALERTNAME: a trigger reached PagerDuty listing the alert for that node.
paged() {
  e2e_pd_has "e['body']['event_action'] == 'trigger' and e['body']['payload']['custom_details']['instance'] == '$1' and '$2' in e['body']['payload']['custom_details']['alerts']"
}
e2e_wait_until 30 "the uninhibited critical alerts paged" bash -c "$(declare -f paged e2e_pd_has e2e_pd_events); PD_EVENTS='$PD_EVENTS'
  paged n1:9879 RoceTrafficCollapsed && paged n2:9879 RoceGidDrift && paged n3:9879 RoceIpMissing &&
  paged n2:9879 RoceTrafficCollapsed && paged n2:9879 RoceTrafficDegraded &&
  paged '' RoceFabricFlapStorm && paged n8:9879 RoceGidDrift &&
  paged '' RoceLeafFlapStorm && paged '' RoceLeafLinkQualityFailing && paged n10:9879 RoceGidDrift &&
  paged n10:9879 RoceLinkQualityFailing && paged n15:9879 RoceRailMiscabled"
# An observation window, not a wait: Alertmanager flushes a few more group intervals (2 s in the
# test copy) in which an inhibited alert would page. No Prometheus here whose evaluations could
# count it, and Alertmanager 0.25 exports no count of flushes.
sleep 6

e2e_in_ns curl -fsS --max-time 5 "$AM_URL/api/v2/alerts" | python3 -c '
import json, sys
alerts = json.load(sys.stdin)
def state(name, instance="", **labels):
    for a in alerts:
        l = a["labels"]
        if l["alertname"] == name and l.get("instance", "") == instance and all(l.get(k, "") == v for k, v in labels.items()):
            return "inhibited" if a["status"]["inhibitedBy"] else a["status"]["state"]
    return "missing"
expected = [
    (("RoceTrafficCollapsed", "n1:9879"), {"device": "mlx5_0"}, "inhibited"),   # its port is down
    (("RoceTrafficCollapsed", "n1:9879"), {"device": "mlx5_1"}, "active"),      # another port
    (("RoceGidIndexMismatch", "n2:9879"), {"device": "mlx5_0"}, "inhibited"),   # drift, same device
    (("RoceGidIndexInconsistent", "n2:9879"), {"device": "mlx5_0"}, "inhibited"),
    (("RoceGidIndexMismatch", "n2:9879"), {"device": "mlx5_1"}, "active"),      # another device
    (("RoceTrafficCollapsed", "n2:9879"), {"device": "mlx5_0"}, "inhibited"),   # drift, same port
    (("RoceTrafficCollapsed", "n2:9879"), {"device": "mlx5_3"}, "active"),      # another rail
    (("RoceTrafficCollapsed", "n3:9879"), {"netdev": "ens2f0np0"}, "inhibited"),  # its IP is missing
    (("RoceGidIndexMismatch", "n3:9879"), {"netdev": "ens2f0np0"}, "inhibited"),  # its IP is missing
    (("RoceGidIndexMismatch", "n3:9879"), {"netdev": "ens3f0np0"}, "active"),
    (("RoceLinkFlapping", "n7:9879"), {}, "inhibited"),                         # fabric storm in b
    (("RoceIpLostDuringFlap", "n8:9879"), {}, "inhibited"),
    (("RoceGidDrift", "n8:9879"), {}, "active"),                                # never inhibited
    (("RoceLinkFlapping", "n9:9879"), {}, "active"),                            # cluster c
    (("RoceLeafFlapStorm", ""), {"cluster": "b"}, "inhibited"),                 # fabric storm in b
    (("RoceLeafFlapStorm", ""), {"cluster": "d"}, "active"),
    (("RoceLinkFlapping", "n10:9879"), {}, "inhibited"),                        # on leaf-a
    (("RoceIpLostDuringFlap", "n10:9879"), {}, "inhibited"),
    (("RoceLinkDown", "n10:9879"), {}, "inhibited"),
    (("RoceLinkQualityDegraded", "n10:9879"), {}, "active"),                    # another kind
    (("RoceGidDrift", "n10:9879"), {}, "active"),
    (("RoceLinkQualityFailing", "n10:9879"), {}, "active"),                     # leaf-a: flaps only
    (("RoceLinkFlapping", "n11:9879"), {}, "active"),                           # leaf-b
    (("RoceLinkFlapping", "n12:9879"), {}, "active"),                           # no neighbor
    (("RoceLinkFlapping", "n13:9879"), {}, "active"),                           # leaf-a of cluster e
    (("RoceLinkQualityFailing", "n11:9879"), {}, "inhibited"),                  # leaf-b fails
    (("RoceFecUncorrectable", "n11:9879"), {}, "inhibited"),
    (("RocePfcStorm", "n10:9879"), {"direction": "rx"}, "inhibited"),           # a victim on leaf-a
    (("RocePfcStorm", "n14:9879"), {"direction": "tx"}, "active"),              # the origin
    (("RoceRailLeafInconsistent", "n15:9879"), {"netdev": "ens1f0np0"}, "inhibited"),  # by the plan
    (("RoceRailLeafInconsistent", "n15:9879"), {"netdev": "ens2f0np0"}, "active"),
]
problems = ["%s %s %s: %s, expected %s" % (n, i, l, state(n, i, **l), want)
            for (n, i), l, want in expected if state(n, i, **l) != want]
for a in alerts:
    receivers = [r["name"] for r in a["receivers"]]
    want = (["pagerduty-critical"] if a["labels"]["severity"] == "critical"
            else ["pagerduty-low-urgency"] if a["labels"]["alertname"] == "RoceTrafficDegraded"
            else ["rocewatch-warnings"])
    if receivers != want:
        problems.append("%s goes to %s, expected %s" % (a["labels"]["alertname"], receivers, want))
print("alertmanager checks:", "all passed" if not problems else "FAILED\n  " + "\n  ".join(problems))
sys.exit(1 if problems else 0)' || e2e_fail "routing or inhibition"

python3 - "$PD_EVENTS" <<'EOF' || e2e_fail "what reached PagerDuty"
import json, sys
events = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
triggers = [e["body"] for e in events if e["body"].get("event_action") == "trigger"]
problems = []
for t in triggers:
    degraded = "RoceTrafficDegraded" in t["payload"]["custom_details"]["alerts"]
    if t["payload"]["severity"] != ("warning" if degraded else "critical"):
        problems.append("%s paged at %s" % (t["payload"]["summary"], t["payload"]["severity"]))
# An incident is a node's (its source: the node; the leaf for a leaf alert; the cluster) at the
# severity of its receiver: the node's critical incident, and a low-urgency one for a drop.
def incident(t):
    return (t["payload"]["source"], t["payload"]["severity"])
by_incident = {}
for t in triggers:
    by_incident.setdefault(incident(t), set()).add(t["dedup_key"])
for i, keys in by_incident.items():
    if len(keys) != 1:
        problems.append("%r: %d incidents, expected one" % (i, len(keys)))
if len({k for keys in by_incident.values() for k in keys}) != len(by_incident):
    problems.append("incidents and dedup keys are not one to one")
last = {incident(t): t for t in triggers}
def listed(node):
    t = last.get((node, "critical"))
    return t["payload"]["custom_details"]["alerts"] if t else ""
# Every uninhibited critical of a node in its one incident, whatever the rail...
for node, words in {"n1:9879": ["RoceTrafficCollapsed mlx5_1/1"],
                    "n2:9879": ["RoceGidDrift mlx5_0/1", "RoceGidIndexMismatch mlx5_1/1",
                                "RoceTrafficCollapsed mlx5_3/1"],
                    "n3:9879": ["RoceIpMissing", "RoceGidIndexMismatch mlx5_2/1"],
                    "n10:9879": ["RoceGidDrift mlx5_0/1", "RoceLinkQualityFailing"]}.items():
    problems += ["node %s: %r not in %r" % (node, w, listed(node)) for w in words if w not in listed(node)]
# ...and no inhibited one.
for node, words in {"n1:9879": ["RoceTrafficCollapsed mlx5_0/1"],
                    "n2:9879": ["RoceTrafficCollapsed mlx5_0/1", "RoceGidIndexMismatch mlx5_0/1"],
                    "n3:9879": ["RoceTrafficCollapsed", "RoceGidIndexMismatch mlx5_1/1"]}.items():
    problems += ["node %s lists an inhibited alert %r: %r" % (node, w, listed(node))
                 for w in words if w in listed(node)]
if ("n2:9879", "warning") not in last:
    problems.append("no low-urgency incident of n2's drop")
# One incident per leaf, named by its source; nothing of a muted leaf or rail pages.
for leaf, name in {"leaf-a": "RoceLeafFlapStorm", "leaf-b": "RoceLeafLinkQualityFailing"}.items():
    if name not in listed(leaf):
        problems.append("leaf %s: %r not in its page %r" % (leaf, name, listed(leaf)))
for source in ("leaf-x", "n11:9879"):
    if any(t["payload"]["source"] == source for t in triggers):
        problems.append("%s paged, but every alert of it is inhibited" % source)
if any(not e["accepted"] for e in events):
    problems.append("the stand-in rejected events")
print("pagerduty checks:", "all passed" if not problems else "FAILED %s" % problems)
sys.exit(1 if problems else 0)
EOF
e2e_log "PASS: $(wc -l <"$PD_EVENTS") events; one incident per node, warnings not paged (a drop at warning severity), every inhibition as configured and scoped to its rail"
