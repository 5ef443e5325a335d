#!/usr/bin/env bash
# End to end: open pages survive a daemon that cannot be scraped for up to 2 minutes (a DaemonSet
# rollout, an image pull, a crash-loop backoff), and resolve once their causes are fixed.
# In a network namespace of its own (loopback only, free ports): `rocewatch run` on a simulated
# three-rail node (fixture sysfs + veth RNICs, simulated_node.sh), Prometheus with the shipped rules,
# Alertmanager with the shipped configuration pointed at the PagerDuty Events v2 stand-in, and the
# stand-in.
#
# Time is scaled by 20 (E2E_RULE_SCALE): every rule window of the generated copy is divided by 20,
# keep_firing_for 2m45s included (8 s), and so are the outages below: 45 s becomes 2.25 s and 2
# minutes 6 s. Prometheus scrapes every 0.5 s (the shipped 15 s would be 0.75 s), so the longer
# outage misses a dozen scrapes; it evaluates every second.
#
# Four critical alerts open on the node: rail 0 flaps NetworkManager-style and its RoCE v2 GID
# moves from index 3 to 5 (RoceGidDrift, and RoceGidIndexMismatch with --expected-gid-index 3,
# which the drift inhibits), rail 1 loses its address in a flap (RoceIpMissing, and its index
# mismatch, inhibited), rail 2's policy rule `from 10.0.2.2 lookup 100` is wiped
# (RocePolicyRulesMissing). They page, as one incident: the node's. No job holds the node's
# devices and no traffic flows, so the watcher's own alert is RocewatchDown (a warning after 5
# scaled minutes) and no PagerDuty event can come from it. Then the daemon is stopped (SIGTERM, right after a scrape) for the scaled
# 45 s and, once back, for the scaled 2 minutes, and started again on its state file. Asserted
# for each outage:
#   - Prometheus saw the target down (`up` 0) and the node's series gone (stale);
#   - the alerts stayed firing throughout, with the same activeAt (no `for:` again);
#   - PagerDuty received nothing at all: no resolve, no trigger, so no new incident (a trigger
#     after a resolve would open a new incident under the same dedup key: events are counted, not
#     only keys).
# Then the GIDs, the address and the rule come back: the incident resolves once the last of its
# alerts has, keep_firing_for (8 s) after its condition ended.
#
# Wall time about 80 s here (the overall deadline is 180 s). Exit 77 (skip) without root / network
# namespaces, or when prometheus, prometheus-alertmanager, promtool, amtool, curl or python3 is
# missing.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"
source "$(dirname "$0")/simulated_node.sh"

e2e_require_commands prometheus prometheus-alertmanager promtool amtool curl python3
e2e_setup 180
E2E_RULE_SCALE=20
E2E_SCRAPE_INTERVAL=500ms
E2E_SCRAPE_TIMEOUT=500ms
SHORT_OUTAGE=2.25  # 45 s / 20
LONG_OUTAGE=6      # 2 minutes / 20
sim_node_create 3
e2e_in_ns ip rule add from 10.0.2.2 lookup 100 prio 1000

e2e_start_receiver
e2e_start_alertmanager
DAEMON_ARGS=(--interval 1s --gid-source sysfs --log-level info --expected-gid-index 3 --ip-missing-grace 2s)
sim_node_start_daemon "${DAEMON_ARGS[@]}"
DAEMON_PID=${E2E_PIDS[-1]}
e2e_start_prometheus "$NODE_TARGET"
e2e_log "namespace $E2E_NETNS: rocewatch $NODE_TARGET, prometheus $PROM_URL, alertmanager $AM_URL"

e2e_wait_until 30 "rocewatch scraped" e2e_prom_has 'up{job="rocewatch"} == 1'
e2e_wait_until 10 "healthy rules" e2e_rules_healthy
sim_wait_daemon_sees "rail 2's policy rule" 'rocewatch_policy_rules_missing{netdev="ens3f0np0"}' 0
e2e_wait_rule_evaluations 2 "a healthy node's rules evaluated on its data"
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "a healthy node paged: $(e2e_pd_events 'True')"

e2e_log "incidents: rail 0's GID moves, rail 1 loses its address, rail 2's policy rule is wiped"
sim_flap_networkmanager
sim_flap_address_lost 1
e2e_in_ns ip rule del from 10.0.2.2 lookup 100 prio 1000

NAMES="RoceGidDrift|RoceGidIndexMismatch|RoceIpMissing|RocePolicyRulesMissing"
e2e_wait_until 60 "the four critical alerts firing" \
  e2e_prom_has "count(count by (alertname) (ALERTS{alertstate=\"firing\",alertname=~\"$NAMES\"})) == 4"
triggers='e["body"].get("event_action") == "trigger"'
paged() { e2e_pd_has "$triggers and '$1' in e['body']['payload']['custom_details'].get('alerts', '')"; }
paged_all() { paged RoceGidDrift && paged RoceIpMissing && paged RocePolicyRulesMissing; }
e2e_wait_until 30 "the pages of the three rails" paged_all
e2e_wait_rule_evaluations 4 "Alertmanager flushes a group interval (2 s in the test copy)"

# alerts_state: "name netdev activeAt" of every firing alert of the four, sorted.
alerts_state() {
  e2e_in_ns curl -fsS --max-time 5 "$PROM_URL/api/v1/alerts" | python3 -c '
import json, re, sys
rows = sorted("%s %s %s" % (a["labels"]["alertname"], a["labels"].get("netdev", ""), a["activeAt"])
              for a in json.load(sys.stdin)["data"]["alerts"]
              if re.fullmatch(sys.argv[1], a["labels"]["alertname"]) and a["state"] == "firing")
print("\n".join(rows))' "$NAMES"
}
dedup_keys() { e2e_pd_events "$triggers" | python3 -c 'import json, sys; print(" ".join(sorted({json.loads(l)["body"]["dedup_key"] for l in sys.stdin})))'; }
before_alerts=$(alerts_state)
keys=$(dedup_keys)
e2e_log "open: $(echo "$before_alerts" | tr '\n' ';') PagerDuty incidents: $keys"
[ "$(echo "$before_alerts" | wc -l)" = 5 ] || e2e_fail "expected five firing alerts (two index mismatches): $before_alerts"
[ "$(wc -w <<<"$keys")" = 1 ] || e2e_fail "expected one PagerDuty incident for the node: $keys"

last_scrape() {
  e2e_in_ns curl -fsS --max-time 2 "$PROM_URL/api/v1/targets" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["activeTargets"][0]["lastScrape"])'
}
now() { date +%s.%N; }
seconds_since() { python3 -c 'import sys, time; print("%.2f" % (time.time() - float(sys.argv[1])))' "$1"; }
sleep_until() { python3 -c 'import sys, time; time.sleep(max(0.0, float(sys.argv[1]) - time.time()))' "$1"; }
node_series_gone() { ! e2e_prom_has '{job="rocewatch",__name__=~"rocewatch_.+"}'; }
node_series_back() { e2e_prom_has 'rocewatch_ip_missing{netdev="ens2f0np0"} == 1'; }
restarts=0

# outage SECONDS WHAT: stops the daemon right after a scrape, keeps it away SECONDS (from its exit
# to its next start), starts it again on its state file, and checks that nothing reached PagerDuty.
outage() {
  local away=$1 what=$2 scrape stopped back pd_before failed window
  pd_before=$(wc -l <"$PD_EVENTS")
  scrape=$(last_scrape)
  for _ in $(seq 200); do [ "$(last_scrape)" != "$scrape" ] && break; sleep 0.02; done
  kill -TERM "$DAEMON_PID"
  while kill -0 "$DAEMON_PID" 2>/dev/null; do sleep 0.02; done
  stopped=$(now)
  e2e_log "$what: rocewatch stopped for ${away} s"
  e2e_wait_until 10 "Prometheus to see the target down" e2e_prom_has 'up{job="rocewatch"} == 0'
  e2e_wait_until 10 "the node's series to go stale" node_series_gone
  [ "$(alerts_state)" = "$before_alerts" ] ||
    e2e_fail "$what: the alerts changed while rocewatch was away: $(alerts_state)"
  # The outage itself: a fixed length by definition (the checks above ran inside it).
  sleep_until "$(python3 -c "print($stopped + $away)")"
  restarts=$((restarts + 1))
  e2e_start "rocewatch-$restarts" "$ROCEWATCH_BINARY" run --host-root "$SIM_HOST_ROOT" \
    --listen "$NODE_TARGET" --state-file "$E2E_DIR/rocewatch-state.json" "${DAEMON_ARGS[@]}"
  DAEMON_PID=${E2E_PIDS[-1]}
  until e2e_http_ok "http://$NODE_TARGET/healthz"; do sleep 0.02; done
  back=$(now)
  e2e_wait_until 10 "the node's series back in Prometheus" node_series_back
  window=$(python3 -c "import math, time; print(math.ceil(time.time() - $stopped) + 1)")s
  failed=$(e2e_prom_query "count_over_time(up{job=\"rocewatch\"}[$window]) - sum_over_time(up{job=\"rocewatch\"}[$window])" |
    python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "?")')
  e2e_log "$what: rocewatch away $(python3 -c "print('%.2f' % ($back - $stopped))") s from exit to /healthz, $failed failed scrapes"
  e2e_wait_rule_evaluations 6 "$what: a resolve, a new for: or a new page would show by now"
  [ "$(alerts_state)" = "$before_alerts" ] ||
    e2e_fail "$what: the alerts changed across the outage (a resolve or a new for:): before: $before_alerts after: $(alerts_state)"
  local events
  events=$(tail -n +"$((pd_before + 1))" "$PD_EVENTS")
  [ -z "$events" ] || e2e_fail "$what: PagerDuty received events: $events"
  [ "$(dedup_keys)" = "$keys" ] || e2e_fail "$what: new PagerDuty incidents: $(dedup_keys), before: $keys"
  e2e_log "$what: the alerts kept firing with the same activeAt; 0 PagerDuty events (0 resolve, 0 trigger)"
}
pd_before_outages=$(wc -l <"$PD_EVENTS")
outage "$SHORT_OUTAGE" "outage of 45 s (scaled)"
outage "$LONG_OUTAGE" "outage of 2 minutes (scaled)"

e2e_log "recovery: rail 0's GIDs back at 2/3, rail 1's address back, rail 2's rule back"
fixed=$(now)
pd_at_fix=$(wc -l <"$PD_EVENTS")
sim_gid_clear 4
sim_gid_clear 5
sim_gid_set 2 "$SIM_IPV4_GID" "IB/RoCE v1"
sim_gid_set 3 "$SIM_IPV4_GID" "RoCE v2"
e2e_in_ns ip addr add 10.0.1.2/24 dev ens2f0np0
rail1="$SIM_SYSFS/class/infiniband/mlx5_1/ports/1"
SIM_PORT=$rail1 SIM_NETDEV=ens2f0np0 sim_gid_set 2 0000:0000:0000:0000:0000:ffff:0a00:0102 "IB/RoCE v1"
SIM_PORT=$rail1 SIM_NETDEV=ens2f0np0 sim_gid_set 3 0000:0000:0000:0000:0000:ffff:0a00:0102 "RoCE v2"
e2e_in_ns ip rule add from 10.0.2.2 lookup 100 prio 1000
# every_key_resolved: a resolve for each incident's dedup key.
every_key_resolved() {
  local key
  for key in $keys; do
    e2e_pd_has "e['body'].get('event_action') == 'resolve' and e['body'].get('dedup_key') == '$key'" || return 1
  done
}
# The move back to 3 is a drift too: RoceGidDrift holds for 5 scaled minutes (15 s), then 8 s,
# and the node's incident resolves with its last alert.
e2e_wait_until 60 "the resolve of the incident" every_key_resolved
e2e_log "resolved $(seconds_since "$fixed") s after the fix: $(e2e_pd_events 'e["body"].get("event_action") == "resolve"' |
  python3 -c 'import json, sys; print("; ".join("%s %s" % (json.loads(l)["body"]["dedup_key"][:12], json.loads(l)["received_at"]) for l in sys.stdin))')"

rejected=$(e2e_pd_events 'not e["accepted"]')
[ -z "$rejected" ] || e2e_fail "the PagerDuty stand-in rejected events: $rejected"
e2e_rules_healthy || e2e_fail "a rule failed to evaluate"
! e2e_prom_has 'ALERTS{alertname=~"Rocewatch.*",alertstate="firing"}' ||
  e2e_fail "a self-alert fired: $(e2e_prom_query 'ALERTS{alertname=~"Rocewatch.*",alertstate="firing"}')"
resolves=$(e2e_pd_events 'e["body"].get("event_action") == "resolve"' | wc -l)
e2e_log "PASS: PagerDuty incidents: $(wc -w <<<"$keys"); $pd_before_outages events before the outages, 0 across them, $(($(wc -l <"$PD_EVENTS") - pd_at_fix)) after the fix ($resolves resolves)"
