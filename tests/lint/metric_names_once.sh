#!/usr/bin/env bash
# Metric names exist once: as constants in the headers that name a room's metric families
# (lib/**/*_metric_names.h, and the Slurm check's remediation_metrics.h), which the exporter, the
# diagnose reader and the tests share. A "rocewatch_..." string literal anywhere else under lib/
# fails, since a second spelling of a name is how an exporter and its reader drift apart.
# Usage: metric_names_once.sh [LIB_DIR]
set -u
lib=${1:-$(dirname "$0")/../../lib}
# String literals that start with rocewatch_ and are no metric names.
not_metrics='"rocewatch_version"|"rocewatch_kubelet_module_v1"'

found=$(grep -rnoE '"rocewatch_[a-z0-9_]+"' --include='*.h' --include='*.cc' "$lib" |
  grep -vE '(_metric_names\.h|/remediation_metrics\.h):' | grep -vE ":($not_metrics)\$")
if [ -n "$found" ]; then
  echo "FAIL: metric names spelled outside the rooms' *_metric_names.h (use the constant):"
  echo "$found"
  exit 1
fi
count=$(cat "$lib"/*/*_metric_names.h "$lib"/*/*/*_metric_names.h 2>/dev/null | grep -c '"rocewatch_')
echo "ok: every metric name under $lib is one constant ($count in *_metric_names.h)"
