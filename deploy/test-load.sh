# Sourced by the deploy tests that stream `fieldprof load` into the frequency job on a private
# cluster (test-faults.sh, test-scaleout.sh). The caller defines step(), fail() and fieldprof(),
# and sets REST_URL, JOB_ID, BOOTSTRAP, DEVICES and RATE before using these.

restored_checkpoint() { # the id of the checkpoint the job last restored from, or nothing
  http_get "$REST_URL/jobs/$JOB_ID/checkpoints" | grep -o '"restored":{"id":[0-9]*' | grep -o '[0-9]*$' || true
}
job_running() {
  http_get "$REST_URL/jobs/$JOB_ID" | grep -q '"state":"RUNNING"'
}

LOAD_PID=""
# start_load NAME SECONDS: `fieldprof load` in the background, its output in $FIELDPROF_RUN_DIR/NAME.log.
start_load() {
  LOAD_LOG="$FIELDPROF_RUN_DIR/$1.log"
  : > "$LOAD_LOG"
  fieldprof load --bootstrap "$BOOTSTRAP" --devices "$DEVICES" --rate "$RATE" --duration "$2s" \
    --progress 2s --drain-timeout 3m --state-dir "$FIELDPROF_RUN_DIR/$1-devices" > "$LOAD_LOG" 2>&1 &
  LOAD_PID=$!
}
stop_load() { # from the EXIT trap: a load still running is killed
  [[ -n "$LOAD_PID" ]] && kill "$LOAD_PID" 2>/dev/null || true
}
windows_seen() { # the load's latest count of committed estimate windows
  grep -oE "estimates [0-9]+ windows" "$LOAD_LOG" | tail -n 1 | grep -oE '[0-9]+' || echo 0
}
# await_windows N: until the running load has seen at least N estimate windows committed, or has
# ended: on a slow machine the job may recover only after the load's last report, and the step
# that follows then works on the state the stream left (finish_load still checks every count).
await_windows() {
  local deadline=$((SECONDS + 120))
  until (($(windows_seen) >= $1)); do
    if ! kill -0 "$LOAD_PID" 2>/dev/null; then
      step "   the load ended after $(windows_seen) estimate windows, before $1: what follows comes after the stream"
      return 0
    fi
    ((SECONDS < deadline)) || { cat "$LOAD_LOG" >&2; fail "fewer than $1 estimate windows after 120 s"; }
    sleep 1 # polling the load's progress, a real condition
  done
}
# finish_load WHAT: waits for the load, shows its figures, fails unless every report counted once.
finish_load() {
  local status=0
  wait "$LOAD_PID" || status=$?
  LOAD_PID=""
  grep -E "^fieldprof load: " "$LOAD_LOG" | sed "s/^fieldprof load: /$(basename "$0" .sh):   /"
  [[ $status == 0 ]] && grep -q "exact     every report counted once" "$LOAD_LOG" \
    || { cat "$LOAD_LOG" >&2; fail "$1: not every report was counted exactly once (exit $status)"; }
}
