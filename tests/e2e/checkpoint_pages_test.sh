#!/usr/bin/env bash
# End to end: a checkpoint never pages; a hung job pages once, as one incident for the node.
# In a network namespace of its own (loopback only, free ports): `rocewatch run` on a simulated
# four-rail node (fixture sysfs + veth RNICs, simulated_node.sh) with the fixture's host root
# (--host-root), so that it judges the processes of the fixture's procfs, never those of the
# machine running the test. That procfs holds the job: pid 4242, Slurm job 81, the verbs nodes of
# mlx5_0 to mlx5_3 open. Every rail carries the job's traffic (its data counters advance, 2 GB/s).
# Prometheus with the shipped rules (windows divided by 4 in a generated copy:
# RoceTrafficCollapsed's `for: 1m` is 15 s), Alertmanager with the shipped configuration pointed at
# the PagerDuty Events v2 stand-in, and the stand-in.
#
# The daemon's traffic windows are scaled down with the rules, keeping the documented margin
# (docs/detection.md, "Rails stopping one after the other"): a withdrawn collapse lasts at most
# 2 x spread - collapse-after, 27 s of the `for: 1m` with the defaults; here
# --traffic-collapse-after 2s and --traffic-checkpoint-spread 7s, at most 12 s of 15 s.
# --traffic-node-stop-window 30s (10 min by default): a pause longer than that is a hung job.
#
# The checkpoint: the rails stop 1.5 s apart (4.5 s from the first to the last, within the
# spread). mlx5_0, stopped while its siblings still carried traffic for more than 2 s, collapses by
# the rail rule (mlx5_1 may too). Asserted:
#   - the daemon: mlx5_0 `collapsed`, then every rail `idle` with its collapse withdrawn (its info
#     event), each collapse shorter than the alert's `for` (by the daemon's own event times), no
#     traffic_collapsed finding left;
#   - Prometheus: RoceTrafficCollapsed pending on mlx5_0 at most, never firing, through more
#     evaluations than a collapse that held would have needed to page;
#   - PagerDuty: 0 events. Then the job's traffic resumes on every rail: still 0.
# The hung job: the rails stop the same way and stay stopped. The withdrawn collapses page
# nobody; past the node-stop window every rail is collapsed node-wide. Asserted: 0 events until
# then; then RoceTrafficCollapsed firing on the four rails and exactly one PagerDuty event: one
# critical trigger of the node's incident (one dedup key; the critical route groups by cluster
# and instance), listing the four rails, no sooner than node-stop window + `for` after the last
# rail stopped; nothing more after further evaluations and group intervals.
#
# Wall time about 120 s here, beside another e2e test on a loaded machine (the overall deadline is
# 240 s). Exit 77 (skip) without root /
# network namespaces, or when prometheus, prometheus-alertmanager, promtool, amtool, curl or
# python3 is missing.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"
source "$(dirname "$0")/simulated_node.sh"

e2e_require_commands prometheus prometheus-alertmanager promtool amtool curl python3
e2e_setup 240
E2E_RULE_SCALE=4
FOR=15          # RoceTrafficCollapsed's for: 1m / 4
NODE_WINDOW=30  # --traffic-node-stop-window
STAGGER=1.5     # seconds between two rails' stops
RAILS=(0 1 2 3)
sim_node_create 4

JOB_PID=4242
sim_fixture_job "$JOB_PID" 81 "${RAILS[@]}"
sim_traffic_rails_start "${RAILS[@]}"

e2e_start_receiver
e2e_start_alertmanager
sim_node_start_daemon --interval 1s --gid-source sysfs --log-level info \
  --traffic-collapse-after 2s --traffic-checkpoint-spread 7s --traffic-node-stop-window "${NODE_WINDOW}s"
e2e_start_prometheus "$NODE_TARGET"
e2e_log "namespace $E2E_NETNS: rocewatch $NODE_TARGET, prometheus $PROM_URL, alertmanager $AM_URL"

e2e_wait_until 30 "rocewatch scraped" e2e_prom_has 'up{job="rocewatch"} == 1'
e2e_wait_until 10 "healthy rules" e2e_rules_healthy
for r in "${RAILS[@]}"; do
  sim_wait_daemon_sees "the job on mlx5_$r" \
    "rocewatch_traffic_consumers{device=\"mlx5_$r\",port=\"1\",knowledge=\"present\"}" 1
done
pids=$(e2e_in_ns curl -fsS --max-time 2 "http://$NODE_TARGET/metrics" |
  sed -n 's/^rocewatch_rdma_consumer_info{.*,pid="\([0-9]*\)".*/\1/p' | sort -u | tr '\n' ' ')
[ "$pids" = "$JOB_PID " ] || e2e_fail "the daemon's consumers are not the fixture's job alone: pids $pids"
e2e_wait_until 40 "every rail's baseline learned" \
  e2e_prom_has 'count(rocewatch_traffic_baseline_bytes_per_second > 0) == 4'
e2e_wait_until 10 "every rail normal" e2e_prom_has 'count(rocewatch_traffic_state{state="normal"} == 1) == 4'
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "a healthy node paged: $(e2e_pd_events 'True')"

rails_in_state() {  # rails_in_state STATE: every rail in STATE
  local r
  for r in "${RAILS[@]}"; do
    sim_daemon_metric_is "rocewatch_traffic_state{device=\"mlx5_$r\",port=\"1\",state=\"$1\"}" 1 || return 1
  done
}
events_since() {  # events_since EPOCH: the daemon's events from then on, one JSON per line
  e2e_in_ns curl -fsS --max-time 2 "http://$NODE_TARGET/api/v1/findings" | python3 -c '
import datetime, json, sys
since = float(sys.argv[1])
for e in json.load(sys.stdin)["events"]:
    t = datetime.datetime.strptime(e["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    if t.timestamp() >= since:
        print(json.dumps(dict(e, epoch=t.timestamp())))' "$1"
}

e2e_log "a checkpoint: the rails stop ${STAGGER} s apart"
checkpoint=$(date +%s.%N)
LAST_STOP=$(sim_traffic_stop_staggered "$STAGGER" "${RAILS[@]}")
sim_wait_daemon_sees "mlx5_0 collapsed by the rail rule" \
  'rocewatch_traffic_state{device="mlx5_0",port="1",state="collapsed"}' 1
collapse_seen=$(e2e_rule_iterations)
e2e_wait_until 30 "every rail idle (the collapses withdrawn)" rails_in_state idle
# A collapse that held would fire after FOR evaluations and reach the stand-in a group_wait (1 s)
# later: wait for more than that since the collapse was seen, still well inside the node-stop window.
e2e_wait_until $((FOR * 5 + 10)) "$((FOR + 6)) evaluations since the collapse" \
  e2e_rule_iterations_reached $((collapse_seen + FOR + 6))
e2e_log "$(python3 -c "import time; print('%.1f' % (time.time() - $LAST_STOP))") s since the last rail stopped (node-stop window ${NODE_WINDOW} s)"
rails_in_state idle || e2e_fail "a rail left idle during the pause (the node-stop window?)"
events_since "$checkpoint" | python3 -c '
import json, sys
events = [json.loads(l) for l in sys.stdin]
FOR = float(sys.argv[1])
collapsed = {}
durations = {}
for e in events:
    # "mlx5_0/1 traffic normal -> collapsed: ...": the rail leads the message.
    m = e["message"]
    rail = m.split(" ", 1)[0]
    print("daemon event: %s %s %s" % (e["time"], e["severity"], m[:120]))
    if " traffic " not in m:
        continue
    if "-> collapsed" in m:
        collapsed[rail] = e["epoch"]
    elif "collapsed -> idle: collapse withdrawn" in m and rail in collapsed:
        durations[rail] = e["epoch"] - collapsed.pop(rail)
print("collapses withdrawn after: %s; not withdrawn: %s" % (
    {k: round(v, 1) for k, v in sorted(durations.items())}, sorted(collapsed)))
ok = "mlx5_0/1" in durations and not collapsed and all(d < FOR for d in durations.values())
sys.exit(0 if ok else 1)' "$FOR" ||
  e2e_fail "expected mlx5_0 (at least) collapsed then withdrawn, every collapse shorter than the alert's for (${FOR} s)"
e2e_in_ns curl -fsS --max-time 2 "http://$NODE_TARGET/api/v1/findings" | python3 -c '
import json, sys
left = [f["subject"] for f in json.load(sys.stdin)["findings"] if f["check"] == "traffic_collapsed"]
sys.exit("traffic_collapsed findings left: %s" % left if left else 0)' ||
  e2e_fail "a collapse finding outlived the checkpoint"
window=$(python3 -c "import math, time; print(math.ceil(time.time() - $checkpoint) + 2)")s
e2e_prom_has "max_over_time(ALERTS{alertname=\"RoceTrafficCollapsed\",alertstate=\"pending\",device=\"mlx5_0\"}[$window])" ||
  e2e_fail "RoceTrafficCollapsed was never pending on mlx5_0: Prometheus did not see the collapse"
! e2e_prom_has "max_over_time(ALERTS{alertname=\"RoceTrafficCollapsed\",alertstate=\"firing\"}[$window])" ||
  e2e_fail "RoceTrafficCollapsed fired during the checkpoint"
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "the checkpoint paged: $(e2e_pd_events 'True')"

e2e_log "the checkpoint ends: the job's traffic resumes on every rail"
for r in "${RAILS[@]}"; do sim_write "$E2E_DIR/traffic.$r" on; done
e2e_wait_until 20 "every rail normal again" rails_in_state normal
e2e_wait_rule_evaluations 3 "Alertmanager flushes what the last scrape changed"
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "the checkpoint paged: $(e2e_pd_events 'True')"
e2e_log "the checkpoint paged nobody: 0 PagerDuty events"

e2e_log "a hung job: the rails stop ${STAGGER} s apart and stay stopped"
LAST_STOP=$(sim_traffic_stop_staggered "$STAGGER" "${RAILS[@]}")
node_wide() {
  local r
  for r in "${RAILS[@]}"; do
    sim_daemon_metric_is "rocewatch_traffic_collapsed_node_wide{device=\"mlx5_$r\",port=\"1\"}" 1 || return 1
  done
}
e2e_wait_until $((NODE_WINDOW + 30)) "every rail collapsed node-wide" node_wide
rails_in_state collapsed || e2e_fail "a rail collapsed node-wide is not collapsed"
[ -z "$(e2e_pd_events 'True')" ] || e2e_fail "paged before the node-stop window: $(e2e_pd_events 'True')"
e2e_log "$(python3 -c "import time; print('%.1f' % (time.time() - $LAST_STOP))") s after the last rail stopped: every rail collapsed node-wide, 0 PagerDuty events"

e2e_wait_until $((FOR + 30)) "RoceTrafficCollapsed firing on the four rails" \
  e2e_prom_has 'count(ALERTS{alertname="RoceTrafficCollapsed",alertstate="firing"}) == 4'
triggers='e["body"].get("event_action") == "trigger"'
e2e_wait_until 30 "the page" e2e_pd_has "$triggers"
# Alertmanager flushes a group interval (2 s in the test copy) more than once: nothing else pages.
e2e_wait_rule_evaluations 6 "nothing else pages"
# The earliest page: node-stop window + for after the last stop, less a poll (a stop is timed from
# the start of its first silent interval).
python3 - "$PD_EVENTS" "$E2E_ROUTING_KEY" "$NODE_TARGET" "$LAST_STOP" "$((NODE_WINDOW + FOR - 1))" <<'EOF' ||
import json, sys
events_path, key, node, last_stop, earliest = sys.argv[1:]
events = [json.loads(line) for line in open(events_path, encoding="utf-8")]
print("PagerDuty events: %s" % ["%s %s %.1f s after the last stop" % (
    e["body"].get("event_action"), e["body"].get("dedup_key", "")[:12], e["received_at"] - float(last_stop))
    for e in events])
body = events[0]["body"] if events else {}
payload = body.get("payload", {})
details = payload.get("custom_details", {})
alerts = sorted(details.get("alerts", "").splitlines())
rails = ["mlx5_%d/1 (ens%df0np0)" % (r, r + 1) for r in range(4)]
checks = {
    "exactly one event": len(events) == 1,
    "a trigger, accepted": body.get("event_action") == "trigger" and all(e["accepted"] for e in events),
    "critical, the node's, the test's routing key": payload.get("severity") == "critical"
        and payload.get("source") == node and body.get("routing_key") == key,
    "RoceTrafficCollapsed on the four rails, nothing else": len(alerts) == 4 and all(
        a.startswith("RoceTrafficCollapsed %s: " % rail) for a, rail in zip(alerts, rails)),
    "the four alerts counted in the summary": "(4 alerts)" in payload.get("summary", ""),
    "the job named": "job 81" in details.get("description", ""),
    "no sooner than node-stop window + for after the last stop":
        bool(events) and events[0]["received_at"] - float(last_stop) >= float(earliest),
}
failed = [name for name, ok in checks.items() if not ok]
print("page checks:", "all passed" if not failed else "FAILED %s\n%s" % (failed, json.dumps(events, indent=1)))
sys.exit(1 if failed else 0)
EOF
  e2e_fail "PagerDuty did not receive exactly the one page of the node's hung job"
e2e_check_clean_end
e2e_log "PASS: the checkpoint paged nobody; the hung job paged once ($(e2e_pd_actions | cut -c1-20))"
