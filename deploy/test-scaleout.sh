#!/usr/bin/env bash
# Scale-out tests of deploy/: a KRaft broker and a Flink session cluster of two TaskManager JVMs
# (deploy/start-flink.sh --taskmanagers 2, two slots each) on free loopback ports, in a private
# run directory, and the frequency estimation job rescaled and failed while reports stream in:
#
#   a. the job runs at parallelism 2; it is stopped with a savepoint and started again from it at
#      parallelism 4, which takes every slot of both TaskManagers;
#   b. at parallelism 4 the second TaskManager is killed with SIGKILL; deploy/start-flink.sh starts
#      a new one and the job restarts from its latest checkpoint across both; then it is stopped
#      with a savepoint again and started from it at parallelism 2.
#
# Reports come from `fieldprof load` (simulated devices with the real SDK), which checks at the end
# that every report the devices made is on the report topic and summed in exactly one estimate
# window: made = distinct on the topic = counted, no dead letter. Each of a and b is one load, so
# the reports written while the job is down or rescaled are among those counted. Exit 0 only when
# both passed; cleanup runs on every exit (trap).
#
# Needs curl and the built CLI and job jar (mvn -B package -DskipTests -pl cli -am).
# Environment: FIELDPROF_MVN_ARGS (e.g. -o), READY_TIMEOUT_SECONDS, KEEP_RUN_DIR=1 to keep logs,
# SCALE_RATE (reports/s, 100), SCALE_DEVICES (20), FLINK_TM_MEMORY (per TaskManager, 1024m here).
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$DEPLOY_DIR/.." && pwd)"
started=$SECONDS
RATE="${SCALE_RATE:-100}"
DEVICES="${SCALE_DEVICES:-20}"

step() { echo "test-scaleout: [$((SECONDS - started)) s] $*"; }
fail() { echo "test-scaleout: FAILED: $*" >&2; exit 1; }

source "$DEPLOY_DIR/test-env.sh" # free_port, use_private_cluster, end_private_cluster
use_private_cluster scaleout-test
export FLINK_TASKMANAGERS=2 FLINK_TM_MEMORY="${FLINK_TM_MEMORY:-1024m}"
source "$DEPLOY_DIR/lib.sh" # http_get, is_running; after the exports above
source "$DEPLOY_DIR/test-load.sh" # start_load, await_windows, finish_load, restored_checkpoint

cleanup() {
  local status=$?
  stop_load
  end_private_cluster test-scaleout "$status" "$((SECONDS - started))"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

command -v curl >/dev/null || fail "curl is missing (savepoints go through Flink's REST API)"
CLI_JAR="$REPO_DIR/cli/target/fieldprof-cli.jar"
[[ -f "$CLI_JAR" ]] || fail "$CLI_JAR is missing: run 'mvn -B package -DskipTests -pl cli -am' first"
JOB_JAR="$(ls -t "$REPO_DIR"/jobs/target/fieldprof-jobs-*-job.jar 2>/dev/null | head -n 1)"
[[ -n "$JOB_JAR" ]] || fail "the job jar (jobs/target/fieldprof-jobs-*-job.jar) is missing: build it first"
fieldprof() { java -Xmx512m -Dfieldprof.home="$REPO_DIR" -jar "$CLI_JAR" "$@"; }

step "starting the Kafka broker on 127.0.0.1:$KAFKA_PORT"
BOOTSTRAP="$("$DEPLOY_DIR/start-kafka.sh")" || fail "start-kafka.sh"
step "starting the Flink cluster on 127.0.0.1:$FLINK_REST_PORT: 2 TaskManagers of $FLINK_TASK_SLOTS slots"
REST_URL="$("$DEPLOY_DIR/start-flink.sh" --taskmanagers 2)" || fail "start-flink.sh --taskmanagers 2"
SAVEPOINTS="file://$FIELDPROF_RUN_DIR/savepoints"
JOB_ARGS=(--bootstrap "$BOOTSTRAP" --window 5s --out-of-orderness 1s --idleness 2s
  --checkpoint-interval 2s --transactional-id-prefix "scaleout-test-$$")

post() { # post PATH JSON: the response body of a successful POST
  curl -sf --max-time 30 -X POST -H 'Content-Type: application/json' -d "$2" "$REST_URL$1"
}
json_field() { # json_field NAME: the first string value of NAME in the JSON on stdin
  grep -o "\"$1\":\"[^\"]*\"" | head -n 1 | cut -d'"' -f4
}
tasks_starting() { # true while some task of the job is not yet running (its status counts)
  http_get "$REST_URL/jobs/$JOB_ID" | grep -o '"status-counts":{[^}]*}' \
    | grep -qE '"(CREATED|SCHEDULED|DEPLOYING|INITIALIZING)":[1-9]'
}
await_running() { # await_running WHAT: until the job's every task runs
  local deadline=$((SECONDS + 180))
  until job_running && ! tasks_starting; do
    ((SECONDS < deadline)) || fail "$1: the job does not run after 180 s"
    sleep 1 # polling the REST API, a real condition
  done
}
# free_slots: the free slots of each TaskManager, e.g. "0 0 " when the job takes all four.
free_slots() {
  http_get "$REST_URL/taskmanagers" | grep -o '"freeSlots":[0-9]*' | cut -d: -f2 | tr '\n' ' '
}

# start_from SAVEPOINT PARALLELISM: uploads the job jar and runs it from the savepoint (REST API:
# POST /jars/upload, POST /jars/<id>/run with savepointPath); sets JOB_ID.
start_from() {
  local upload jar_id args body
  upload="$(curl -sf --max-time 60 -X POST -F "jarfile=@$JOB_JAR" "$REST_URL/jars/upload")" \
    || fail "uploading $JOB_JAR"
  jar_id="$(basename "$(json_field filename <<<"$upload")")"
  args="$(printf '"%s",' "${JOB_ARGS[@]}")"
  body="{\"entryClass\":\"dev.fieldprof.jobs.frequency.FrequencyEstimationJob\",\"parallelism\":$2,\"savepointPath\":\"$1\",\"programArgsList\":[${args%,}]}"
  JOB_ID="$(post "/jars/$jar_id/run" "$body" | json_field jobid)" || true
  [[ -n "$JOB_ID" ]] || fail "running the job from $1 at parallelism $2"
  await_running "parallelism $2"
  http_get "$REST_URL/jobs/$JOB_ID/checkpoints" | grep -qE '"restored":\{[^}]*"is_savepoint":true' \
    || fail "the job at parallelism $2 did not restore from the savepoint"
}

# stop_with_savepoint: stops the job with a savepoint (no drain: its windows stay open in the
# savepoint) and sets SAVEPOINT to its location.
stop_with_savepoint() {
  local trigger status deadline=$((SECONDS + 120))
  trigger="$(post "/jobs/$JOB_ID/stop" "{\"targetDirectory\":\"$SAVEPOINTS\",\"drain\":false}" | json_field request-id)"
  [[ -n "$trigger" ]] || fail "POST /jobs/$JOB_ID/stop was refused"
  SAVEPOINT=""
  while [[ -z "$SAVEPOINT" ]]; do
    status="$(http_get "$REST_URL/jobs/$JOB_ID/savepoints/$trigger")" || status=""
    if grep -q '"id":"COMPLETED"' <<<"$status"; then
      SAVEPOINT="$(json_field location <<<"$status")"
      [[ -n "$SAVEPOINT" ]] || fail "the savepoint failed: $status"
    fi
    ((SECONDS < deadline)) || fail "no savepoint after 120 s: $status"
    sleep 1 # polling the REST API, a real condition
  done
}

# ---- a. parallelism 2, savepoint, parallelism 4 ----------------------------------------------------
step "a. submitting the frequency job at parallelism 2 (checkpoints every 2 s)"
fieldprof jobs submit --jobmanager "127.0.0.1:$FLINK_REST_PORT" --parallelism 2 --timeout 120s -- \
  "${JOB_ARGS[@]}" || fail "fieldprof jobs submit"
JOB_ID="$(http_get "$REST_URL/jobs/overview" | json_field jid)"
[[ -n "$JOB_ID" ]] || fail "no job on the cluster"
step "a. streaming $RATE reports/s from $DEVICES devices; a savepoint after 2 windows"
start_load rescale-up 30
await_windows 2
stop_with_savepoint
step "a. stopped with savepoint $SAVEPOINT; starting it at parallelism 4"
start_from "$SAVEPOINT" 4
step "a. the job runs at parallelism 4 from the savepoint; free slots per TaskManager: $(free_slots)"
[[ "$(free_slots)" == "0 0 " ]] || fail "a. the job at parallelism 4 does not take every slot of both TaskManagers: $(free_slots)"
finish_load "a. parallelism 2 -> 4"
step "a. passed"

# ---- b. kill -9 a TaskManager at parallelism 4, then back to parallelism 2 ------------------------
step "b. streaming again; killing TaskManager 2 after 2 more windows"
start_load kill-and-rescale-down 30
await_windows 2
before_restore="$(restored_checkpoint)"
tm_pid="$(head -n 1 "$FIELDPROF_RUN_DIR/flink/taskmanager-2.pid")"
kill -9 "$tm_pid"
step "b. killed TaskManager 2, pid $tm_pid (SIGKILL); start-flink.sh starts the missing one"
"$DEPLOY_DIR/start-flink.sh" >/dev/null || fail "start-flink.sh could not start a new TaskManager"
deadline=$((SECONDS + 180))
until [[ -n "$(restored_checkpoint)" && "$(restored_checkpoint)" != "$before_restore" ]] && job_running; do
  ((SECONDS < deadline)) || fail "b. the job did not restore from a checkpoint within 180 s"
  sleep 1 # polling the REST API, a real condition
done
await_running "parallelism 4 after the kill"
step "b. the job runs again at parallelism 4, restored from checkpoint $(restored_checkpoint); free slots: $(free_slots)"
seen="$(windows_seen)"
await_windows $((seen + 2))
stop_with_savepoint
step "b. stopped with savepoint $SAVEPOINT after $(windows_seen) windows; starting it at parallelism 2"
start_from "$SAVEPOINT" 2
finish_load "b. TaskManager kill at parallelism 4, then 4 -> 2"
step "b. passed"
step "stopping everything"
