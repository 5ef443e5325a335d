#!/usr/bin/busybox sh
# The kernel tier's guest-side runner: every /kt/*_scenario.sh in name order (or those named in
# $1, comma-separated, without the suffix), each on a fresh fabric (lib.sh: veth pair, rxe0 and
# rxe1), under its own time bound: the scenario's "# kt-timeout: SECONDS" line (default 30).
# Reports one line per scenario on the console, "KT RESULT PASS|FAIL|SKIP NAME SECONDS", after its
# notes ("KT NOTE", measured values) and, on failure, its log; then "KT SUMMARY N passed, N
# failed, N skipped". $2 non-empty: every scenario's log, passed or not. Exit status: 0 when
# none failed.
. /kt/lib.sh
only=",$1,"
verbose=$2
passed=0
failed=0
skipped=0
kt_rules

cleanup() {
  [ -f "$KT_WORK/pids" ] && for pid in $(cat "$KT_WORK/pids"); do kill -KILL "$pid" 2>/dev/null; done
  for pid in $(cat "$KT_WORK/pids" 2>/dev/null); do kt_wait 5 kt_gone "$pid"; done
  kt_fabric_down
  rm -rf /run/rocewatch
}

for file in /kt/*_scenario.sh; do
  name=$(basename "$file" _scenario.sh)
  [ "$only" = ",," ] || case "$only" in *",$name,"*) ;; *) continue ;; esac
  bound=$(sed -n 's/^# kt-timeout: *\([0-9]*\).*/\1/p' "$file")
  rm -rf "$KT_WORK" && mkdir -p "$KT_WORK"
  begin=$(kt_now)
  status=0
  if kt_fabric_up >"$KT_WORK/fabric.log" 2>&1; then
    KT_SCENARIO=$name timeout "${bound:-30}" sh "$file" >"$KT_WORK/log" 2>&1 || status=$?
  else
    echo "KT FAIL $name: the fabric did not come up: $(tail -3 "$KT_WORK/fabric.log")" >"$KT_WORK/log"
    status=1
  fi
  took=$(kt_since "$begin")
  grep '^KT NOTE' "$KT_WORK/log"
  [ -n "$verbose" ] && [ "$status" -eq 0 ] && sed "s/^/KT LOG $name: /" "$KT_WORK/log"
  case $status in
    0) result=PASS passed=$((passed + 1)) ;;
    77) result=SKIP skipped=$((skipped + 1)); grep '^KT SKIP' "$KT_WORK/log" ;;
    *)
      result=FAIL failed=$((failed + 1))
      [ "$status" -ge 124 ] && echo "KT FAIL $name: timed out after ${bound:-30} s (status $status)"
      sed "s/^/KT LOG $name: /" "$KT_WORK/log" | tail -60
      [ -f "$KT_WORK/daemon.log" ] && tail -20 "$KT_WORK/daemon.log" | sed "s/^/KT LOG $name daemon: /"
      ;;
  esac
  echo "KT RESULT $result $name $took"
  cleanup
done
echo "KT SUMMARY $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
