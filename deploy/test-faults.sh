#!/usr/bin/env bash
# Fault tests of deploy/: a KRaft broker and a Flink session cluster as their own JVMs on free
# loopback ports (in a private run directory, so a cluster of yours is never touched), the
# frequency estimation job submitted at parallelism 2, and three faults while reports stream in:
#
#   a. the TaskManager is killed with SIGKILL; deploy/start-flink.sh starts a new one (it starts
#      whatever part of the cluster is missing) and the job restarts from its latest checkpoint;
#   b. the broker is stopped and, after an outage, started again with deploy/start-kafka.sh;
#   c. a device is offline for a simulated day (its transport cannot reach the broker: each run's
#      report waits in its on-disk spool), then its next run reaches the broker and flushes it.
#
# Reports for a and b come from `fieldprof load` (simulated devices with the real SDK: numbered
# reports, on-disk spools), which checks at the end that every report the devices made is on the
# report topic and summed in exactly one estimate window: reports made = distinct reports on the
# topic = sum of the reports of all estimate windows, no dead letter. For c the estimate windows of
# the device's app version must hold exactly the reports its ledger numbered. Exit 0 only when all
# three passed; cleanup runs on every exit (trap).
#
# Needs the built CLI and job jar (mvn -B package -DskipTests -pl cli -am).
# Environment: FIELDPROF_MVN_ARGS (e.g. -o), READY_TIMEOUT_SECONDS, KEEP_RUN_DIR=1 to keep logs,
# FAULT_RATE (reports/s, 100), FAULT_DEVICES (20), FAULT_OUTAGE_SECONDS (broker outage, 10),
# FAULT_IDLENESS (the job's --idleness, 2s: how often it observes end offsets; any value must
# pass, a short one is the harder case).
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$DEPLOY_DIR/.." && pwd)"
started=$SECONDS
RATE="${FAULT_RATE:-100}"
DEVICES="${FAULT_DEVICES:-20}"
OUTAGE="${FAULT_OUTAGE_SECONDS:-10}"

step() { echo "test-faults: [$((SECONDS - started)) s] $*"; }
fail() { echo "test-faults: FAILED: $*" >&2; exit 1; }

source "$DEPLOY_DIR/test-env.sh" # free_port, use_private_cluster, end_private_cluster
use_private_cluster faults-test
source "$DEPLOY_DIR/lib.sh" # http_get, is_running, stop_pid; after the exports above
source "$DEPLOY_DIR/test-load.sh" # start_load, await_windows, finish_load, restored_checkpoint

cleanup() {
  local status=$?
  stop_load
  end_private_cluster test-faults "$status" "$((SECONDS - started))"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

CLI_JAR="$REPO_DIR/cli/target/fieldprof-cli.jar"
[[ -f "$CLI_JAR" ]] || fail "$CLI_JAR is missing: run 'mvn -B package -DskipTests -pl cli -am' first"
ls "$REPO_DIR"/jobs/target/fieldprof-jobs-*-job.jar >/dev/null 2>&1 \
  || fail "the job jar (jobs/target/fieldprof-jobs-*-job.jar) is missing: build it first"
fieldprof() { java -Xmx512m -Dfieldprof.home="$REPO_DIR" -jar "$CLI_JAR" "$@"; }

step "starting the Kafka broker on 127.0.0.1:$KAFKA_PORT"
BOOTSTRAP="$("$DEPLOY_DIR/start-kafka.sh")" || fail "start-kafka.sh"
step "starting the Flink cluster on 127.0.0.1:$FLINK_REST_PORT"
REST_URL="$("$DEPLOY_DIR/start-flink.sh")" || fail "start-flink.sh"
step "submitting the frequency estimation job (parallelism 2, checkpoints every 2 s)"
fieldprof jobs submit --jobmanager "127.0.0.1:$FLINK_REST_PORT" --parallelism 2 --timeout 120s -- \
  --bootstrap "$BOOTSTRAP" --window 5s --out-of-orderness 1s --idleness "${FAULT_IDLENESS:-2s}" \
  --checkpoint-interval 2s --transactional-id-prefix "faults-test-$$" \
  || fail "fieldprof jobs submit"
JOB_ID="$(http_get "$REST_URL/jobs/overview" | grep -o '"jid":"[0-9a-f]*"' | head -n 1 | cut -d'"' -f4)"
[[ -n "$JOB_ID" ]] || fail "no job on the cluster"

completed_checkpoints() {
  http_get "$REST_URL/jobs/$JOB_ID/checkpoints" | grep -o '"completed":[0-9]*' | head -n 1 | cut -d: -f2
}

# ---- a. kill -9 the TaskManager mid-stream ------------------------------------------------------
step "a. streaming $RATE reports/s from $DEVICES devices; killing the TaskManager after 2 windows"
start_load taskmanager-kill 40
await_windows 2
before_restore="$(restored_checkpoint)"
checkpoints="$(completed_checkpoints)"
tm_pid="$(head -n 1 "$FIELDPROF_RUN_DIR/flink/taskmanager.pid")"
kill -9 "$tm_pid"
step "a. killed TaskManager pid $tm_pid (SIGKILL) after $checkpoints completed checkpoints; restarting it with start-flink.sh"
"$DEPLOY_DIR/start-flink.sh" >/dev/null || fail "start-flink.sh could not start a new TaskManager"
deadline=$((SECONDS + 180))
until [[ -n "$(restored_checkpoint)" && "$(restored_checkpoint)" != "$before_restore" ]] && job_running; do
  ((SECONDS < deadline)) || fail "a. the job did not restore from a checkpoint within 180 s"
  sleep 1 # polling the REST API, a real condition
done
step "a. the job runs again, restored from checkpoint $(restored_checkpoint)"
finish_load "a. TaskManager kill"
step "a. passed"

# ---- b. stop and restart the broker mid-stream -----------------------------------------------------
step "b. streaming again; stopping the broker after 2 windows, for $OUTAGE s"
start_load broker-restart 40
await_windows 2
stop_pid "Kafka broker" "$FIELDPROF_RUN_DIR/kafka/kafka.pid"
step "b. broker stopped for $OUTAGE s"
sleep "$OUTAGE" # the outage under test
"$DEPLOY_DIR/start-kafka.sh" >/dev/null || fail "start-kafka.sh could not restart the broker"
step "b. broker restarted"
finish_load "b. broker restart"
job_running || fail "b. the job is not running after the broker came back"
step "b. passed (last restored checkpoint: $(restored_checkpoint))"

# ---- c. a device offline for a simulated day ---------------------------------------------------------
TOOLS="$FIELDPROF_RUN_DIR/tools"
mkdir -p "$TOOLS"
javac -nowarn -cp "$CLI_JAR" -d "$TOOLS" "$DEPLOY_DIR/tools/OfflineDevice.java" || fail "could not compile tools/OfflineDevice.java"
device() { java -Xmx256m -cp "$TOOLS:$CLI_JAR" OfflineDevice "$@"; }
APP="offline-test:$$-$RANDOM"
DEVICE_STATE="$FIELDPROF_RUN_DIR/offline-device"
UNREACHABLE="127.0.0.1:$(free_port)"
device publish "$BOOTSTRAP" "$APP" || fail "c. publishing the device's program model"
step "c. a device runs 4 times in a simulated day without reaching a broker ($UNREACHABLE)"
for hours_ago in 24 18 12 6; do
  line="$(device run "$DEVICE_STATE" "$UNREACHABLE" "$APP" "$hours_ago")" || fail "c. offline run: $line"
  echo "test-faults:   $line"
done
grep -q "waiting in the spool 4$" <<<"$line" || fail "c. the spool does not hold the day's 4 reports"
step "c. its next run reaches the broker"
# 60 s: the wait ends when the spool and the new report are sent; a busy machine may need more than
# the 2 s a program's exit gives (what this run does not send waits for the next run, by design).
line="$(device run "$DEVICE_STATE" "$BOOTSTRAP" "$APP" 0 60)" || fail "c. online run: $line"
echo "test-faults:   $line"
grep -q "reports made so far 5, sent by this run 5, waiting in the spool 0$" <<<"$line" \
  || fail "c. the online run did not send the spool and its own report"
java -Xmx256m -cp "$CLI_JAR" "$DEPLOY_DIR/tools/EstimateRoundTrip.java" check "$BOOTSTRAP" "$APP" 5 120 --counts-only \
  | sed "s/^/test-faults:   /" || fail "c. the estimates do not hold the device's 5 reports exactly once"
step "c. passed"
step "stopping everything"
