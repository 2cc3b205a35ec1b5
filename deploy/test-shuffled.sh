#!/usr/bin/env bash
# Script test of the shuffled mode on deploy/: a KRaft broker and a Flink session cluster of two
# TaskManager processes, as their own JVMs on free loopback ports (a private run directory); the
# analyst's key pair made with `fieldprof keys generate`; a real program from Maven Central
# (google-java-format, deploy/test-program/pom.xml) analyzed in the shuffled mode and published;
# the shuffler job and the frequency job as two separate submissions at parallelism 2; devices
# running the program under the device agent, sealing their reports to the analyst's public
# keyset, in bursts with quiet gaps. Every report a device made must be in exactly one released
# batch and one estimate window, which names its batches' sizes and the central (ε, δ); no dead
# letter on either dead-letter topic. Exit 0 only when every step passed; cleanup runs on every
# exit (trap).
#
# Needs the built CLI and job jar: run `mvn -B package -DskipTests` (or `mvn -B verify`) first.
# Environment: FIELDPROF_MVN_ARGS (e.g. -o), READY_TIMEOUT_SECONDS, KEEP_RUN_DIR=1 to keep logs,
# BURSTS (3) of DEVICES_PER_BURST (4) devices, GAP_S (10) seconds apart.
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$DEPLOY_DIR/.." && pwd)"
started=$SECONDS

step() { echo "test-shuffled: [$((SECONDS - started)) s] $*"; }
fail() { echo "test-shuffled: FAILED: $*" >&2; exit 1; }

source "$DEPLOY_DIR/test-env.sh" # free_port, use_private_cluster, end_private_cluster
use_private_cluster shuffled-test

cleanup() {
  local status=$?
  end_private_cluster test-shuffled "$status" "$((SECONDS - started))"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

BURSTS="${BURSTS:-3}"
DEVICES_PER_BURST="${DEVICES_PER_BURST:-4}"
GAP_S="${GAP_S:-10}"
DEVICES=$((BURSTS * DEVICES_PER_BURST))
CLI_JAR="$REPO_DIR/cli/target/fieldprof-cli.jar"
[[ -f "$CLI_JAR" ]] || fail "$CLI_JAR is missing: run 'mvn -B package -DskipTests' first"
ls "$REPO_DIR"/jobs/target/fieldprof-jobs-*-job.jar >/dev/null 2>&1 \
  || fail "the job jar (jobs/target/fieldprof-jobs-*-job.jar) is missing: run 'mvn -B package -DskipTests' first"
CLI=(java -Dfieldprof.home="$REPO_DIR" -jar "$CLI_JAR")

step "starting the Kafka broker on 127.0.0.1:$KAFKA_PORT"
BOOTSTRAP="$("$DEPLOY_DIR/start-kafka.sh")" || fail "start-kafka.sh"
step "starting the Flink cluster on 127.0.0.1:$FLINK_REST_PORT with two TaskManagers"
REST_URL="$("$DEPLOY_DIR/start-flink.sh" --taskmanagers 2)" || fail "start-flink.sh"
source "$DEPLOY_DIR/lib.sh" # resolve_classpath, http_get

WORK="$FIELDPROF_RUN_DIR/shuffled"
mkdir -p "$WORK"
step "the analyst's key pair: fieldprof keys generate"
"${CLI[@]}" keys generate --out "$WORK/keys" | sed 's/^/  /' || fail "fieldprof keys generate"

PROGRAM_CP="$(resolve_classpath "$DEPLOY_DIR/test-program/pom.xml" "$FIELDPROF_CACHE_DIR/test-program.classpath")"
PROGRAM_JAR="$(tr ':' '\n' <<<"$PROGRAM_CP" | grep '/google-java-format-[0-9.]*\.jar$')"
PROGRAM_DEPS="$(tr ':' '\n' <<<"$PROGRAM_CP" | grep -v '/google-java-format-[0-9.]*\.jar$' | paste -sd: -)"
APP="gjf-shuffled-test:$$-$RANDOM"
# Each burst is one batch: the shuffler releases a group once it holds the minimum.
step "analyzing $(basename "$PROGRAM_JAR") as $APP in the shuffled mode (batches of at least $DEVICES_PER_BURST), publishing it"
"${CLI[@]}" analyze --jar "$PROGRAM_JAR" --classpath "$PROGRAM_DEPS" --app "$APP" \
  --privacy-mode shuffled --epsilon 2 --min-batch-size "$DEVICES_PER_BURST" --delta 1e-6 \
  --out "$WORK/program.model" >"$WORK/analyze.log" 2>&1 || { tail -n 5 "$WORK/analyze.log" >&2; fail "fieldprof analyze"; }
"${CLI[@]}" publish --bootstrap "$BOOTSTRAP" --model "$WORK/program.model" >/dev/null || fail "fieldprof publish"
"${CLI[@]}" device-jar --out "$WORK/lib" >/dev/null || fail "fieldprof device-jar"

step "submitting the shuffler job (parallelism 2)"
"${CLI[@]}" jobs submit --job shuffler --jobmanager "127.0.0.1:$FLINK_REST_PORT" --parallelism 2 --timeout 120s -- \
  --bootstrap "$BOOTSTRAP" --min-batch-size "$DEVICES_PER_BURST" --max-batch-size "$DEVICES_PER_BURST" \
  --release-interval 1s --checkpoint-interval 2s --transactional-id-prefix "shuffler-test-$$" \
  || fail "fieldprof jobs submit --job shuffler"
step "submitting the frequency job with the analyst's private keyset (parallelism 2)"
"${CLI[@]}" jobs submit --jobmanager "127.0.0.1:$FLINK_REST_PORT" --parallelism 2 --timeout 120s -- \
  --bootstrap "$BOOTSTRAP" --analyst-keyset "$WORK/keys/analyst-private.json" --window 5s \
  --out-of-orderness 1s --idleness 2s --checkpoint-interval 2s --transactional-id-prefix "shuffled-test-$$" \
  || fail "fieldprof jobs submit"

PROGRAM_OPENS=()
for package in api code file parser tree util; do
  PROGRAM_OPENS+=("--add-exports=jdk.compiler/com.sun.tools.javac.$package=ALL-UNNAMED")
done
SOURCES=("$REPO_DIR"/jobs/src/main/java/dev/fieldprof/jobs/shuffle/*.java)
run_device() { # run_device N: one run of the program on device N (its own state directory)
  java "${PROGRAM_OPENS[@]}" -javaagent:"$WORK/lib/fieldprof-device.jar=model=$WORK/program.model" \
    -cp "$PROGRAM_JAR:$PROGRAM_DEPS" -Dfieldprof.transport=kafka \
    -Dfieldprof.transport.kafka.bootstrap.servers="$BOOTSTRAP" -Dfieldprof.state.dir="$WORK/device-$1" \
    -Dfieldprof.shuffler.analyst.public.keyset="$WORK/keys/analyst-public.json" \
    -Dfieldprof.transport.exit.wait=PT60S \
    com.google.googlejavaformat.java.Main "${SOURCES[$(($1 % ${#SOURCES[@]}))]}" >"$WORK/device-$1.out" 2>"$WORK/device-$1.err"
}
for burst in $(seq 0 $((BURSTS - 1))); do
  (( burst == 0 )) || sleep "$GAP_S" # the quiet gap of the traffic under test
  first=$((burst * DEVICES_PER_BURST))
  step "burst $((burst + 1)): devices $first-$((first + DEVICES_PER_BURST - 1)) run the program"
  for d in $(seq "$first" $((first + DEVICES_PER_BURST - 1))); do run_device "$d" & done
  wait || fail "a device run failed (see $WORK/device-*.err)"
done
errors="$(cat "$WORK"/device-*.err | wc -c)"
(( errors == 0 )) || fail "the devices wrote $errors bytes on stderr: $(head -c 300 "$WORK"/device-*.err)"
# A report the broker has not taken when the program exits (the exit waits up to 60 s, less once
# all is sent) stays in the device's spool for its next run: counted here, never as sent.
made=0
waiting=0
for d in $(seq 0 $((DEVICES - 1))); do
  n="$("${CLI[@]}" privacy ledger --state-dir "$WORK/device-$d" | awk '$1 == "reports" {print $2}')"
  made=$((made + ${n:-0}))
  spooled=("$WORK/device-$d"/spool/*.rep)
  [[ -e "${spooled[0]}" ]] && waiting=$((waiting + ${#spooled[@]}))
done
sent=$((made - waiting))
step "the devices made $made reports (their ledgers), sent $sent, waiting in their spools $waiting; $("${CLI[@]}" privacy ledger --state-dir "$WORK/device-0" | grep -i -m 1 'central' || true)"
(( made == DEVICES )) || fail "the $DEVICES devices made $made reports, one each expected"
(( waiting == 0 )) || fail "$waiting reports still wait in the devices' spools after a 60 s exit wait"

step "reading the shuffled batches, the estimates and both dead-letter topics"
java -cp "$CLI_JAR" "$DEPLOY_DIR/tools/ShuffledRoundTrip.java" check "$BOOTSTRAP" "$APP" "$sent" 180 \
  | sed 's/^/  /' ; [[ ${PIPESTATUS[0]} == 0 ]] || fail "the shuffled round trip"

JOBS="$(http_get "$REST_URL/jobs/overview" | grep -o '"state":"[A-Z]*"' | sort | uniq -c | tr -s ' ' | paste -sd, -)"
[[ "$JOBS" == ' 2 "state":"RUNNING"' ]] || fail "both jobs should still run: $JOBS"
step "both jobs still running; stopping everything"
