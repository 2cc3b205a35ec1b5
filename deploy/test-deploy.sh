#!/usr/bin/env bash
# Script test of deploy/: starts a KRaft broker and a Flink session cluster as their own JVMs on
# free loopback ports (in a private run directory, so a cluster of yours is never touched),
# submits the frequency estimation job at parallelism 2 through the REST API with `fieldprof jobs
# submit`, feeds it randomized reports in bursts with quiet gaps (one partition each, the others
# idle), reads the estimates back and checks that every report is in exactly one window (none lost,
# none dead-lettered) and that no operator dropped a late record (Flink's numLateRecordsDropped
# through the REST API). Then the paths job at parallelism 2 and a real program (google-java-format
# from Maven Central, deploy/test-program/pom.xml) analyzed, published and run on six devices under
# the device agent with path tracing, in two bursts; every path report a device handed over must be
# on the topic and decoded by the job, none dead-lettered, and the second burst must code with a
# learned edge model. Then it stops everything. Exit 0 only when every step passed; cleanup runs on
# every exit (trap).
#
# Needs the built CLI and job jar: run `mvn -B package -DskipTests` (or `mvn -B verify`) first.
# Environment: FIELDPROF_MVN_ARGS (e.g. -o), READY_TIMEOUT_SECONDS, KEEP_RUN_DIR=1 to keep logs,
# PATHS_TRACER=direct|staged: the devices' path tracer (client setting paths.tracer; default
# direct, path format 3; staged writes format 4), and every report on the topic must be in its
# format.
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$DEPLOY_DIR/.." && pwd)"
started=$SECONDS

step() { echo "test-deploy: [$((SECONDS - started)) s] $*"; }
fail() { echo "test-deploy: FAILED: $*" >&2; exit 1; }

source "$DEPLOY_DIR/test-env.sh" # free_port, use_private_cluster, end_private_cluster
use_private_cluster deploy-test

cleanup() {
  local status=$?
  end_private_cluster test-deploy "$status" "$((SECONDS - started))"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PATHS_TRACER="${PATHS_TRACER:-direct}"
case "$PATHS_TRACER" in
  direct) PATH_FORMAT=3 ;;
  staged) PATH_FORMAT=4 ;;
  *) fail "PATHS_TRACER must be direct or staged, got '$PATHS_TRACER'" ;;
esac
CLI_JAR="$REPO_DIR/cli/target/fieldprof-cli.jar"
[[ -f "$CLI_JAR" ]] || fail "$CLI_JAR is missing: run 'mvn -B package -DskipTests' first"
ls "$REPO_DIR"/jobs/target/fieldprof-jobs-*-job.jar >/dev/null 2>&1 \
  || fail "the job jar (jobs/target/fieldprof-jobs-*-job.jar) is missing: run 'mvn -B package -DskipTests' first"

step "starting the Kafka broker on 127.0.0.1:$KAFKA_PORT"
BOOTSTRAP="$("$DEPLOY_DIR/start-kafka.sh")" || fail "start-kafka.sh"
step "starting the Flink cluster on 127.0.0.1:$FLINK_REST_PORT"
REST_URL="$("$DEPLOY_DIR/start-flink.sh")" || fail "start-flink.sh"

# Small windows so that the test sees several close within seconds; quiet gaps longer than a
# window plus the idleness, so that windows close between the bursts.
WINDOW_MS=5000
BURSTS=3
GAP_MS=8000
# FIELDPROF_KAFKA_PROPERTIES (see lib.sh): the client properties of a secured listener.
KAFKA_CLIENT_ARGS=()
[[ -z "${FIELDPROF_KAFKA_PROPERTIES:-}" ]] || KAFKA_CLIENT_ARGS=(--kafka-properties "$FIELDPROF_KAFKA_PROPERTIES")
step "submitting the frequency estimation job"
java -Dfieldprof.home="$REPO_DIR" -jar "$CLI_JAR" jobs submit \
  --jobmanager "127.0.0.1:$FLINK_REST_PORT" --parallelism 2 --timeout 120s \
  ${KAFKA_CLIENT_ARGS[@]+"${KAFKA_CLIENT_ARGS[@]}"} -- \
  --bootstrap "$BOOTSTRAP" --window "${WINDOW_MS}ms" --out-of-orderness 1s --idleness 2s \
  --checkpoint-interval 2s --transactional-id-prefix "deploy-test-$$" \
  || fail "fieldprof jobs submit"

APP="deploy-test:$$-$RANDOM"
REPORTS=200
ROUND_TRIP=(java -cp "$CLI_JAR" "$DEPLOY_DIR/tools/EstimateRoundTrip.java")
step "feeding $REPORTS randomized reports of $APP in $BURSTS bursts, ${GAP_MS} ms apart"
"${ROUND_TRIP[@]}" feed "$BOOTSTRAP" "$APP" "$REPORTS" "$BURSTS" "$GAP_MS" || fail "feeding reports"
step "reading the estimates back"
"${ROUND_TRIP[@]}" check "$BOOTSTRAP" "$APP" "$REPORTS" 120 || fail "the estimates"

source "$DEPLOY_DIR/lib.sh" # for http_get
JOB_STATE="$(http_get "$REST_URL/jobs/overview" | grep -o '"state":"[A-Z]*"' | head -n 1 || true)"
[[ "$JOB_STATE" == '"state":"RUNNING"' ]] || fail "the job is not running any more ($JOB_STATE)"

# Flink's own count of records a window dropped as late, for every operator of the job: a window
# without a late-data output drops silently, and that must never happen.
JOB_ID="$(http_get "$REST_URL/jobs/overview" | grep -o '"jid":"[0-9a-f]*"' | head -n 1 | cut -d'"' -f4)"
metrics=0
dropped=0
for vertex in $(http_get "$REST_URL/jobs/$JOB_ID" | grep -o '"id":"[0-9a-f]\{32\}"' | cut -d'"' -f4 | sort -u); do
  ids="$(http_get "$REST_URL/jobs/$JOB_ID/vertices/$vertex/metrics" | grep -o '"id":"[^"]*numLateRecordsDropped"' | cut -d'"' -f4 | paste -sd, - || true)"
  [[ -z "$ids" ]] && continue
  for value in $(http_get "$REST_URL/jobs/$JOB_ID/vertices/$vertex/metrics?get=$ids" | grep -o '"value":"[0-9]*"' | cut -d'"' -f4); do
    metrics=$((metrics + 1))
    dropped=$((dropped + value))
  done
done
(( metrics > 0 )) || fail "the job reports no numLateRecordsDropped metric"
(( dropped == 0 )) || fail "operators dropped $dropped late records silently"
step "numLateRecordsDropped is 0 in all $metrics window subtasks"

# Prometheus (conf/config.yaml's metrics.reporter.prom): the job's own counters, scraped as a
# Prometheus server would, match what the test sent. The reporter exports what the TaskManager
# has, so poll a little until the decode counters of both subtasks are there.
scrape_sum() { # scrape_sum METRIC: the sum over every endpoint of the range and every series
  local port total=0 value
  for port in $(seq "$METRICS_BASE" $((METRICS_BASE + 9))); do
    for value in $( (http_get "http://127.0.0.1:$port/metrics" 2>/dev/null || true) \
        | grep -E "^flink_taskmanager_job_task_operator_$1[{ ]" | awk '{print $NF}'); do
      total=$(awk -v a="$total" -v b="$value" 'BEGIN {printf "%.0f", a + b}')
    done
  done
  echo "$total"
}
decoded=0
for _ in $(seq 1 30); do
  decoded="$(scrape_sum reportsDecoded)"
  [[ "$decoded" == "$REPORTS" ]] && break
  sleep 1 # polling the scrape endpoint, a real condition
done
[[ "$decoded" == "$REPORTS" ]] || fail "Prometheus: reportsDecoded is $decoded, the test sent $REPORTS"
letters="$(scrape_sum deadLetters)"
[[ "$letters" == "0" ]] || fail "Prometheus: deadLetters is $letters, the test sent no bad record"
step "Prometheus ($FLINK_METRICS_PORTS): reportsDecoded $decoded, deadLetters $letters, estimatesPublished $(scrape_sum estimatesPublished)"

# The cluster's configuration (conf/config.yaml) puts keyed state in RocksDB, checkpointed
# incrementally.
CHECKPOINT_CONFIG="$(http_get "$REST_URL/jobs/$JOB_ID/checkpoints/config")"
grep -q '"state_backend":"[A-Za-z]*RocksDB' <<<"$CHECKPOINT_CONFIG" \
  || fail "the job does not keep its state in RocksDB: $CHECKPOINT_CONFIG"
step "state backend: $(grep -o '"state_backend":"[A-Za-z]*"' <<<"$CHECKPOINT_CONFIG" | cut -d'"' -f4)"

# Adaptive path profiling on the same cluster, the way a user runs it: a real program from Maven
# Central analyzed, its model published, the paths job at parallelism 2, and devices running the
# program under the device agent with path tracing on, in two bursts with a quiet gap. The second
# burst starts once the job has published an edge model from the first, so its devices code with
# it. Every path report a device handed over must be on the topic, decoded by the job (its own
# pathReportsDecoded counter) and not dead-lettered.
step "cancelling the frequency job (the cluster has $FLINK_TASK_SLOTS slots) for the paths job"
java -jar "$CLI_JAR" jobs cancel --jobmanager "127.0.0.1:$FLINK_REST_PORT" "$JOB_ID" >/dev/null \
  || fail "fieldprof jobs cancel $JOB_ID"
java -Dfieldprof.home="$REPO_DIR" -jar "$CLI_JAR" jobs submit --job paths \
  --jobmanager "127.0.0.1:$FLINK_REST_PORT" --parallelism 2 --timeout 120s \
  ${KAFKA_CLIENT_ARGS[@]+"${KAFKA_CLIENT_ARGS[@]}"} -- \
  --bootstrap "$BOOTSTRAP" --window "${WINDOW_MS}ms" --out-of-orderness 1s --idleness 2s \
  --checkpoint-interval 2s --transactional-id-prefix "deploy-test-paths-$$" \
  || fail "fieldprof jobs submit --job paths"

PROGRAM_CP="$(resolve_classpath "$DEPLOY_DIR/test-program/pom.xml" "$FIELDPROF_CACHE_DIR/test-program.classpath")"
PROGRAM_JAR="$(tr ':' '\n' <<<"$PROGRAM_CP" | grep '/google-java-format-[0-9.]*\.jar$')"
PROGRAM_DEPS="$(tr ':' '\n' <<<"$PROGRAM_CP" | grep -v '/google-java-format-[0-9.]*\.jar$' | paste -sd: -)"
PATH_APP="gjf-deploy-test:$$-$RANDOM"
WORK="$FIELDPROF_RUN_DIR/paths"
mkdir -p "$WORK"
step "analyzing $(basename "$PROGRAM_JAR") as $PATH_APP, publishing its model, writing the device agent"
java -jar "$CLI_JAR" analyze --jar "$PROGRAM_JAR" --classpath "$PROGRAM_DEPS" --app "$PATH_APP" \
  --out "$WORK/program.model" >"$WORK/analyze.log" 2>&1 || { tail -n 5 "$WORK/analyze.log" >&2; fail "fieldprof analyze"; }
java -jar "$CLI_JAR" publish --bootstrap "$BOOTSTRAP" ${KAFKA_CLIENT_ARGS[@]+"${KAFKA_CLIENT_ARGS[@]}"} \
  --model "$WORK/program.model" >/dev/null || fail "fieldprof publish"
java -Dfieldprof.home="$REPO_DIR" -jar "$CLI_JAR" device-jar --out "$WORK/lib" >/dev/null || fail "fieldprof device-jar"

# javac's internals that the formatter uses.
PROGRAM_OPENS=()
for package in api code file parser tree util; do
  PROGRAM_OPENS+=("--add-exports=jdk.compiler/com.sun.tools.javac.$package=ALL-UNNAMED")
done
SOURCES=("$REPO_DIR"/jobs/src/main/java/dev/fieldprof/jobs/paths/*.java)
run_device() { # run_device N: one run of the program on device N (its own state directory)
  java "${PROGRAM_OPENS[@]}" -javaagent:"$WORK/lib/fieldprof-device.jar=model=$WORK/program.model,paths" \
    -cp "$PROGRAM_JAR:$PROGRAM_DEPS" -Dfieldprof.transport=kafka -Dfieldprof.paths.tracer="$PATHS_TRACER" \
    -Dfieldprof.transport.kafka.bootstrap.servers="$BOOTSTRAP" -Dfieldprof.state.dir="$WORK/device-$1" \
    com.google.googlejavaformat.java.Main "${SOURCES[$(($1 % ${#SOURCES[@]}))]}" >"$WORK/device-$1.out" 2>"$WORK/device-$1.err"
}
PATH_TRIP=(java -cp "$CLI_JAR" "$DEPLOY_DIR/tools/PathRoundTrip.java")
step "burst 1: devices 0-2 run the program with path tracing ($PATHS_TRACER tracer, path format $PATH_FORMAT)"
for d in 0 1 2; do run_device "$d" & done
wait || fail "a device run failed (see $WORK/device-*.err)"
models=""
for _ in $(seq 1 60); do
  models="$("${PATH_TRIP[@]}" models "$BOOTSTRAP" "$PATH_APP")" || fail "reading the edge models"
  [[ -n "$models" ]] && break
  sleep 2 # polling the model topic for the job's first model, a real condition
done
[[ -n "$models" ]] || fail "the paths job published no edge model for $PATH_APP within 120 s"
step "edge models published for $PATH_APP: versions $models"
step "burst 2: devices 3-5 run the program with the published model"
for d in 3 4 5; do run_device "$d" & done
wait || fail "a device run failed (see $WORK/device-*.err)"
errors="$(cat "$WORK"/device-*.err | wc -c)"
(( errors == 0 )) || fail "the devices wrote $errors bytes on stderr: $(head -c 300 "$WORK"/device-*.err)"
handed=0
for d in 0 1 2 3 4 5; do
  n="$(java -jar "$CLI_JAR" privacy ledger --state-dir "$WORK/device-$d" | awk '$1 == "path-reports" {print $2}')"
  handed=$((handed + ${n:-0}))
done
(( handed > 0 )) || fail "the devices handed over no path report"
decoded=0
for _ in $(seq 1 30); do
  decoded="$(scrape_sum pathReportsDecoded)"
  [[ "$decoded" == "$handed" ]] && break
  sleep 1 # polling the scrape endpoint, a real condition
done
trip="$("${PATH_TRIP[@]}" reports "$BOOTSTRAP" "$PATH_APP")" || fail "reading the path reports"
step "devices handed over $handed path reports; on the topic: $(head -n 1 <<<"$trip"); $(sed -n 2p <<<"$trip"); the job decoded $decoded"
on_topic="$(head -n 1 <<<"$trip" | awk '{print $2}')"
[[ "$on_topic" == "$handed" ]] || fail "the devices handed over $handed path reports, the topic has $on_topic ($(sed -n 3p <<<"$trip"))"
[[ "$(sed -n 2p <<<"$trip" | awk '{print $2}')" == "0" ]] || fail "path reports were dead-lettered: $(sed -n 2p <<<"$trip")"
[[ "$decoded" == "$handed" ]] || fail "Prometheus: pathReportsDecoded is $decoded, the devices sent $handed"
grep -q "by-format {$PATH_FORMAT=$on_topic}" <<<"$trip" \
  || fail "not every path report on the topic is in format $PATH_FORMAT ($PATHS_TRACER tracer): $(head -n 1 <<<"$trip")"
grep -q 'by-model-version {0=[0-9]*, [1-9]' <<<"$trip" \
  || fail "no report of the second burst was coded with a learned model: $(head -n 1 <<<"$trip")"

step "stopping everything"
