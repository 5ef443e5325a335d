#!/usr/bin/env bash
# End to end: a restart of rocewatch on the same boot keeps open pages open.
# In a network namespace of its own (loopback only, free ports): `rocewatch run` on a simulated
# three-rail node (fixture sysfs + veth RNICs, simulated_node.sh), Prometheus scraping it every
# 5 s with the shipped rules (windows divided by 60 in a generated copy), Alertmanager with the
# shipped configuration pointed at the PagerDuty Events v2 stand-in, and the stand-in.
#
# Three incidents open at once: rail 0's policy rule `from 10.0.0.2 lookup 100` is wiped, rail 1
# flaps and its address never comes back, rail 2's traffic stops while a process holds its
# device (a job in the fixture's procfs: the daemon runs on the fixture's host root and judges
# no process of the machine running the test) and rails 0 and 1 carry on.
# RocePolicyRulesMissing, RoceIpMissing and RoceTrafficCollapsed fire; the critical ones page.
# Then the daemon is stopped (SIGTERM) and started again, between two scrapes (a DaemonSet
# rollout; the restart itself takes well under a scrape interval here), while the rule, the
# address and the traffic are still gone. Asserted:
#   - right after the restart the daemon exports the three incidents (not idle/0), with the
#     original `since` in its findings, and rocewatch_restored_incidents says what it restored;
#   - the three alerts stay firing in Prometheus with the same activeAt (no `for:` restarted);
#   - PagerDuty receives no resolve and no new incident (every trigger keeps the one dedup key).
# Then the rule and the address come back and the traffic resumes: the page resolves.
# Takes about 95 s here (most of it the traffic baseline, `for:` windows and group intervals);
# the overall deadline is 240 s.
#
# Exit 77 (skip) without root / network namespaces, or when prometheus,
# prometheus-alertmanager, promtool, amtool, curl or python3 is missing.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"
source "$(dirname "$0")/simulated_node.sh"

e2e_require_commands prometheus prometheus-alertmanager promtool amtool curl python3
e2e_setup 240
E2E_SCRAPE_INTERVAL=5s
sim_node_create 3
e2e_in_ns ip rule add from 10.0.0.2 lookup 100 prio 1000

# Traffic on every rail (about 2 GB/s each) while DIR/traffic.R says "on".
rail_port() { echo "$SIM_SYSFS/class/infiniband/mlx5_$1/ports/1"; }
for r in 0 1 2; do sim_write "$E2E_DIR/traffic.$r" on; done
e2e_start traffic bash -c '
  sysfs=$1 dir=$2
  while true; do
    for r in 0 1 2; do
      [ "$(cat "$dir/traffic.$r")" = on ] || continue
      for counter in port_xmit_data port_rcv_data; do
        file="$sysfs/class/infiniband/mlx5_$r/ports/1/counters/$counter"
        printf "%s\n" $(($(cat "$file") + 125000000)) 1<>"$file"
      done
    done
    sleep 0.5
  done' traffic "$SIM_SYSFS" "$E2E_DIR"

# The job of rail 2, in the fixture's procfs (the daemon's host root): pid 4242 of Slurm job 81,
# holding mlx5_2's verbs node.
sim_fixture_job 4242 81 2

e2e_start_receiver
e2e_start_alertmanager
DAEMON_ARGS=(--interval 1s --gid-source sysfs --log-level info --ip-missing-grace 2s)
sim_node_start_daemon "${DAEMON_ARGS[@]}"
DAEMON_PID=${E2E_PIDS[-1]}
e2e_start_prometheus "$NODE_TARGET"
e2e_log "namespace $E2E_NETNS: rocewatch $NODE_TARGET, prometheus $PROM_URL, alertmanager $AM_URL"

metric() {  # metric SERIES: the value rocewatch exports now ("" when absent)
  e2e_in_ns curl -fsS --max-time 2 "http://$NODE_TARGET/metrics" 2>/dev/null |
    awk -v s="$1" 'index($0, s " ") == 1 { print $2 }'
}
metric_is() { [ "$(metric "$1")" = "$2" ]; }

e2e_wait_until 30 "rocewatch scraped" e2e_prom_has 'up{job="rocewatch"} == 1'
e2e_wait_until 20 "rail 2's consumer seen" metric_is 'rocewatch_rdma_consumers{device="mlx5_2"}' 1
e2e_wait_until 40 "learned baselines" e2e_prom_has 'count(rocewatch_traffic_baseline_bytes_per_second > 0) == 3'
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "a healthy node paged: $(e2e_pd_events 'True')"

e2e_log "incidents: rail 0's rule is wiped, rail 1 loses its address in a flap, rail 2's traffic stops"
e2e_in_ns ip rule del from 10.0.0.2 lookup 100 prio 1000
sim_flap_address_lost 1
sim_write "$E2E_DIR/traffic.2" off

ALERTS_EXPR='ALERTS{alertstate="firing",alertname=~"RocePolicyRulesMissing|RoceIpMissing|RoceTrafficCollapsed"}'
e2e_wait_until 60 "the three alerts firing" e2e_prom_has "count($ALERTS_EXPR) == 3"
triggers='e["body"].get("event_action") == "trigger"'
e2e_wait_until 60 "a PagerDuty page" e2e_pd_has "$triggers"

# alerts_state: "name activeAt" per firing alert of the three, sorted.
alerts_state() {
  e2e_in_ns curl -fsS --max-time 5 "$PROM_URL/api/v1/alerts" | python3 -c '
import json, sys
names = {"RocePolicyRulesMissing", "RoceIpMissing", "RoceTrafficCollapsed"}
for a in sorted(json.load(sys.stdin)["data"]["alerts"], key=lambda a: a["labels"]["alertname"]):
    if a["labels"]["alertname"] in names and a["state"] == "firing":
        print(a["labels"]["alertname"], a["activeAt"])'
}
# findings_since: "check subject since" of the daemon's open findings of the three incidents.
findings_since() {
  e2e_in_ns curl -fsS --max-time 2 "http://$NODE_TARGET/api/v1/findings" | python3 -c '
import json, sys
checks = {"policy_routing_missing", "ip_missing_after_flap", "traffic_collapsed"}
for f in sorted(json.load(sys.stdin)["findings"], key=lambda f: f["check"]):
    if f["check"] in checks:
        print(f["check"], f["subject"], f["since"])'
}
e2e_wait_rule_evaluations 6 "Alertmanager flushes a group interval (2 s in the test copy)"
before_alerts=$(alerts_state)
before_findings=$(findings_since)
e2e_log "before the restart: alerts: $(echo "$before_alerts" | tr '\n' ';') findings: $(echo "$before_findings" | tr '\n' ';')"
[ "$(echo "$before_findings" | wc -l)" = 3 ] || e2e_fail "expected three open findings: $before_findings"
pd_before=$(wc -l <"$PD_EVENTS")
dedup_keys() { e2e_pd_events "$triggers" | python3 -c 'import json, sys; print(" ".join(sorted({json.loads(l)["body"]["dedup_key"] for l in sys.stdin})))'; }
keys_before=$(dedup_keys)

last_scrape() {
  e2e_in_ns curl -fsS --max-time 2 "$PROM_URL/api/v1/targets" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["activeTargets"][0]["lastScrape"])'
}
e2e_log "restart: SIGTERM right after a scrape, then \`rocewatch run\` again on the same state file"
scrape=$(last_scrape)
for _ in $(seq 200); do [ "$(last_scrape)" != "$scrape" ] && break; sleep 0.05; done
[ "$(last_scrape)" != "$scrape" ] || e2e_fail "Prometheus did not scrape for 10 s"
restart_begin=$(date +%s.%N)
kill -TERM "$DAEMON_PID"
while kill -0 "$DAEMON_PID" 2>/dev/null; do sleep 0.02; done
port=${NODE_TARGET##*:}
e2e_start rocewatch-2 "$ROCEWATCH_BINARY" run --host-root "$SIM_HOST_ROOT" --listen "$NODE_TARGET" \
  --state-file "$E2E_DIR/rocewatch-state.json" "${DAEMON_ARGS[@]}"
DAEMON_PID=${E2E_PIDS[-1]}
until e2e_http_ok "http://$NODE_TARGET/healthz"; do sleep 0.02; done
restart_end=$(date +%s.%N)
restart_ms=$(python3 -c "print(round(($restart_end - $restart_begin) * 1000))")
e2e_log "the daemon was away ${restart_ms} ms (scrape interval $E2E_SCRAPE_INTERVAL)"

e2e_log "right after the restart: what the first scrape sees"
metric_is 'rocewatch_ip_missing{netdev="ens2f0np0"}' 1 || e2e_fail "rocewatch_ip_missing is $(metric 'rocewatch_ip_missing{netdev="ens2f0np0"}') after the restart"
metric_is 'rocewatch_policy_rules_missing{netdev="ens1f0np0"}' 1 || e2e_fail "rocewatch_policy_rules_missing is $(metric 'rocewatch_policy_rules_missing{netdev="ens1f0np0"}') after the restart"
metric_is 'rocewatch_traffic_state{device="mlx5_2",port="1",state="collapsed"}' 1 || e2e_fail "rail 2 is not collapsed after the restart"
after_findings=$(findings_since)
[ "$after_findings" = "$before_findings" ] ||
  e2e_fail "the findings' since changed across the restart: before: $before_findings after: $after_findings"
e2e_wait_until 10 "rail 2 judged on live counters and still collapsed" \
  metric_is 'rocewatch_restored_incidents{check="traffic_collapsed",status="confirmed"}' 1
metric_is 'rocewatch_restored_incidents{check="ip_missing_after_flap",status="confirmed"}' 1 || e2e_fail "the missing address was not restored as confirmed"
metric_is 'rocewatch_restored_incidents{check="policy_routing_missing",status="confirmed"}' 1 || e2e_fail "the missing rule was not restored as confirmed"

e2e_log "three more scrapes and group intervals: the alerts keep firing, nothing resolves"
scraped_since() { [ "$(last_scrape)" != "$1" ]; }
scrape=$(last_scrape)
for round in 1 2 3; do
  e2e_wait_until 30 "scrape $round after the restart" scraped_since "$scrape"
  scrape=$(last_scrape)
done
e2e_wait_rule_evaluations 3 "Alertmanager flushes what the last scrape changed"
after_alerts=$(alerts_state)
[ "$after_alerts" = "$before_alerts" ] ||
  e2e_fail "alerts changed across the restart (a for: restarted or an alert resolved): before: $before_alerts after: $after_alerts"
resolves=$(e2e_pd_events 'e["body"].get("event_action") == "resolve"')
[ -z "$resolves" ] || e2e_fail "PagerDuty got a resolve across the restart: $resolves"
[ "$(dedup_keys)" = "$keys_before" ] || e2e_fail "a new PagerDuty incident after the restart: $(dedup_keys), before: $keys_before"
e2e_log "$(($(wc -l <"$PD_EVENTS") - pd_before)) PagerDuty events after the restart, dedup keys $keys_before"

e2e_log "recovery: the rule and the address come back, rail 2's traffic resumes"
e2e_in_ns ip rule add from 10.0.0.2 lookup 100 prio 1000
e2e_in_ns ip addr add 10.0.1.2/24 dev ens2f0np0
sim_write "$E2E_DIR/traffic.2" on
resolved="e[\"body\"].get(\"event_action\") == \"resolve\""
e2e_wait_until 60 "the page resolved" e2e_pd_has "$resolved"
rejected=$(e2e_pd_events 'not e["accepted"]')
[ -z "$rejected" ] || e2e_fail "the PagerDuty stand-in rejected events: $rejected"
e2e_log "PASS: the page stayed open across a ${restart_ms} ms restart (dedup key $keys_before), resolved after recovery"
