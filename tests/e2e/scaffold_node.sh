#!/usr/bin/env bash
# SCAFFOLDING for pagerduty_path_test.sh until `rocewatch run` can play the node: writes a rocewatch
# exposition to DIR/metrics every 0.5 s (fresh last-poll timestamp, as a polling daemon would)
# from the scenario state in DIR/state: "healthy", "flapped" (carrier down, IPv4 address and its
# GIDs gone) or "drifted DRIFT_UNIX_TIME" (address back, GIDs moved from 2/3 to 4/5).
# Usage: scaffold_node.sh DIR   (runs until killed)
set -euo pipefail
NODE_DIR=$1
DRIFT_TIME=0

write_exposition() {
  local now carrier=1 addresses=1 flaps=0 lost=0 drifts=0 v1=2 v2=3 state=normal rate=40000000000
  now=$(date +%s.%N)
  read -r NODE_STATE DRIFT_TIME <"$NODE_DIR/state" || true
  DRIFT_TIME=${DRIFT_TIME:-0}
  case "$NODE_STATE" in
    flapped) carrier=0 addresses=0 flaps=1 lost=1 v1="" v2="" state=link_down rate=0 ;;
    drifted) flaps=1 lost=1 drifts=1 v1=4 v2=5 ;;
  esac
  {
    echo '# TYPE rocewatch_build_info gauge'
    echo 'rocewatch_build_info{version="0.1.0-scaffold"} 1'
    echo 'rocewatch_port_info{device="mlx5_0",port="1",link_layer="Ethernet",netdev="ens1f0np0"} 1'
    echo "rocewatch_port_active{device=\"mlx5_0\",port=\"1\"} $carrier"
    local gid_labels='device="mlx5_0",port="1",netdev="ens1f0np0"'
    echo "rocewatch_gid_info{$gid_labels,index=\"0\",gid=\"fe80:0000:0000:0000:0202:c9ff:fe00:0001\",type=\"roce_v1\"} 1"
    echo "rocewatch_gid_info{$gid_labels,index=\"1\",gid=\"fe80:0000:0000:0000:0202:c9ff:fe00:0001\",type=\"roce_v2\"} 1"
    if [ -n "$v1" ]; then
      echo "rocewatch_gid_info{$gid_labels,index=\"$v1\",gid=\"0000:0000:0000:0000:0000:ffff:0a00:0001\",type=\"roce_v1\"} 1"
      echo "rocewatch_gid_info{$gid_labels,index=\"$v2\",gid=\"0000:0000:0000:0000:0000:ffff:0a00:0001\",type=\"roce_v2\"} 1"
    fi
    echo '# TYPE rocewatch_gid_drift_events_total counter'
    echo "rocewatch_gid_drift_events_total{$gid_labels} $drifts"
    echo "rocewatch_gid_last_drift_timestamp_seconds{$gid_labels} $DRIFT_TIME"
    echo "rocewatch_gid_index_mismatch{$gid_labels} 0"
    echo "rocewatch_gid_holes{device=\"mlx5_0\",port=\"1\"} $((drifts * 2))"
    echo "rocewatch_netdev_carrier{netdev=\"ens1f0np0\"} $carrier"
    echo '# TYPE rocewatch_link_flaps_total counter'
    echo "rocewatch_link_flaps_total{netdev=\"ens1f0np0\"} $flaps"
    echo '# TYPE rocewatch_netdev_carrier_changes_total counter'
    echo "rocewatch_netdev_carrier_changes_total{netdev=\"ens1f0np0\"} $((flaps * 2))"
    echo '# TYPE rocewatch_ip_lost_during_flap_total counter'
    echo "rocewatch_ip_lost_during_flap_total{netdev=\"ens1f0np0\"} $lost"
    echo "rocewatch_netdev_addresses{netdev=\"ens1f0np0\",family=\"ipv4\"} $addresses"
    echo "rocewatch_ip_missing{netdev=\"ens1f0np0\"} 0"
    echo "rocewatch_policy_rules_missing{netdev=\"ens1f0np0\"} 0"
    echo "rocewatch_policy_routes_missing{netdev=\"ens1f0np0\"} 0"
    echo '# TYPE rocewatch_port_transmit_bytes_total counter'
    echo "rocewatch_port_transmit_bytes_total{device=\"mlx5_0\",port=\"1\"} ${now%.*}000"
    echo '# TYPE rocewatch_port_receive_bytes_total counter'
    echo "rocewatch_port_receive_bytes_total{device=\"mlx5_0\",port=\"1\"} ${now%.*}000"
    echo '# TYPE rocewatch_port_counter_total counter'
    echo "rocewatch_port_counter_total{device=\"mlx5_0\",port=\"1\",counter=\"link_downed\"} $flaps"
    echo "rocewatch_port_counter_total{device=\"mlx5_0\",port=\"1\",counter=\"symbol_error\"} 0"
    echo '# TYPE rocewatch_port_hw_counter_total counter'
    echo "rocewatch_port_hw_counter_total{device=\"mlx5_0\",port=\"1\",counter=\"out_of_sequence\"} $((flaps * 7))"
    echo "rocewatch_traffic_rate_bytes_per_second{device=\"mlx5_0\",port=\"1\"} $rate"
    echo "rocewatch_traffic_baseline_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 40000000000"
    local s
    for s in idle normal degraded collapsed link_down; do
      echo "rocewatch_traffic_state{device=\"mlx5_0\",port=\"1\",state=\"$s\"} $([ "$s" = "$state" ] && echo 1 || echo 0)"
    done
    echo "rocewatch_last_poll_timestamp_seconds $now"
    echo '# TYPE rocewatch_poll_duration_seconds histogram'
    echo 'rocewatch_poll_duration_seconds_bucket{le="0.001"} 10'
    echo 'rocewatch_poll_duration_seconds_bucket{le="0.01"} 20'
    echo 'rocewatch_poll_duration_seconds_bucket{le="+Inf"} 20'
    echo 'rocewatch_poll_duration_seconds_sum 0.05'
    echo 'rocewatch_poll_duration_seconds_count 20'
    echo '# TYPE rocewatch_source_errors_total counter'
    echo 'rocewatch_source_errors_total{source="sysfs"} 0'
    echo '# TYPE rocewatch_netlink_resyncs_total counter'
    echo 'rocewatch_netlink_resyncs_total 0'
    echo '# TYPE rocewatch_state_persistence_failures_total counter'
    echo 'rocewatch_state_persistence_failures_total 0'
  } >"$NODE_DIR/metrics.tmp"
  mv "$NODE_DIR/metrics.tmp" "$NODE_DIR/metrics"
}

while true; do
  write_exposition
  sleep 0.5
done
