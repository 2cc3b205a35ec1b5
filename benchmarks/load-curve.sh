#!/usr/bin/env bash
# The load curve of the frequency job on this machine: `fieldprof load` at
# increasing rates against
#   1. the deploy/ cluster: a KRaft broker and a Flink session cluster as their own JVMs, the job
#      submitted with `fieldprof jobs submit --parallelism 2`, and
#   2. the embedded runtime: `fieldprof jobs run --task-slots 2 frequency` (a MiniCluster in one
#      JVM) against the same broker,
# then prints the table (Markdown) and draws the PNG with LoadCurveChart. A rate is kept up with
# when the devices reached it, the job counted every report at (nearly) the sent rate, and the window
# lag did not grow; the knee is the highest rate kept up with (see LoadCurveChart.Run#keptUp).
#
# Needs the built CLI and job jar (mvn -B package -DskipTests -pl cli -am) and free ports 9092,
# 9093, 8081, 6123 (the deploy/ defaults; set KAFKA_PORT etc. as for deploy/). Takes about
# 2 x RATES x (DURATION + 25 s) plus a minute of start-up: 13 minutes with the defaults.
#
# Environment: RATES ("500 1000 2000 4000 8000" reports/s), DURATION (40 s per rate), DEVICES (200),
# METHODS (50: methods of the synthetic model, k = 5 x METHODS events per report), WINDOW (10s),
# RUNTIMES ("deploy embedded"), OUT (benchmarks/target/load-curve).
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
DEPLOY_DIR="$REPO_DIR/deploy"
RATES="${RATES:-500 1000 2000 4000 8000}"
DURATION="${DURATION:-40}"
DEVICES="${DEVICES:-200}"
METHODS="${METHODS:-50}"
WINDOW="${WINDOW:-10s}"
RUNTIMES="${RUNTIMES:-deploy embedded}"
OUT="${OUT:-$BENCH_DIR/target/load-curve}"
started=$SECONDS

step() { echo "load-curve: [$((SECONDS - started)) s] $*" >&2; }
fail() { echo "load-curve: FAILED: $*" >&2; exit 1; }

CLI_JAR="$REPO_DIR/cli/target/fieldprof-cli.jar"
[[ -f "$CLI_JAR" ]] || fail "$CLI_JAR is missing: run 'mvn -B package -DskipTests -pl cli -am' first"
mkdir -p "$OUT"
RESULTS="$OUT/results.tsv"
: > "$RESULTS"
export FIELDPROF_RUN_DIR="${FIELDPROF_RUN_DIR:-$OUT/run}"
source "$DEPLOY_DIR/lib.sh" # the deploy/ settings (KAFKA_PORT, FLINK_REST_PORT, ...) and http_get

# The Java 17 opens the embedded MiniCluster needs (as ./fieldprof passes them).
OPENS_ARGS=()
for opt in $OPENS; do OPENS_ARGS+=("$opt"); done
fieldprof() { java "${OPENS_ARGS[@]}" -Xmx1g -Dfieldprof.home="$REPO_DIR" -jar "$CLI_JAR" "$@"; }

JOB_PID=""
cleanup() {
  local status=$?
  [[ -n "$JOB_PID" ]] && { kill "$JOB_PID" 2>/dev/null; wait "$JOB_PID" 2>/dev/null || true; }
  "$DEPLOY_DIR/stop-all.sh" --clean >/dev/null 2>&1 || echo "load-curve: stop-all.sh failed" >&2
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The job's options for the curve: short windows so that runs are short; checkpoints (which commit
# the estimates) every 2 s; a partition quiet for 5 s follows the wall clock, which closes a run's
# last window soon after it stops sending.
JOB_OPTIONS=(--bootstrap "$KAFKA_HOST:$KAFKA_PORT" --window "$WINDOW" --checkpoint-interval 2s
  --out-of-orderness 1s --idleness 5s --starting-offsets latest)

# curve RUNTIME: one load run per rate against the job that runs now.
curve() {
  local rate
  for rate in $RATES; do
    step "$1: $rate reports/s for $DURATION s from $DEVICES devices"
    fieldprof load --bootstrap "$KAFKA_HOST:$KAFKA_PORT" --devices "$DEVICES" --methods "$METHODS" --rate "$rate" \
      --duration "${DURATION}s" --progress 10s --drain-timeout 2m --json "$OUT/$1-$rate.json" \
      | tee "$OUT/$1-$rate.log" | grep -E "^fieldprof load: (sent|counted|latency|lag)" >&2 || true
    [[ -s "$OUT/$1-$rate.json" ]] || fail "$1 at $rate reports/s wrote no figures (see $OUT/$1-$rate.log)"
    printf '%s\t%s\n' "$1" "$(cat "$OUT/$1-$rate.json")" >> "$RESULTS"
  done
}

step "starting the broker ($KAFKA_HOST:$KAFKA_PORT)"
"$DEPLOY_DIR/start-kafka.sh" >/dev/null
for runtime in $RUNTIMES; do
  case "$runtime" in
    deploy)
      step "deploy: starting the Flink session cluster and submitting the job at parallelism 2"
      "$DEPLOY_DIR/start-flink.sh" >/dev/null
      fieldprof jobs submit --jobmanager "$FLINK_HOST:$FLINK_REST_PORT" --parallelism 2 --timeout 120s -- \
        "${JOB_OPTIONS[@]}" --transactional-id-prefix "load-curve-deploy-$$" --group-id "load-curve-deploy-$$" >&2
      curve deploy
      "$DEPLOY_DIR/stop-all.sh" >/dev/null 2>&1 # the Flink cluster and the broker; the broker restarts below
      "$DEPLOY_DIR/start-kafka.sh" >/dev/null
      ;;
    embedded)
      step "embedded: jobs run frequency on a MiniCluster with 2 slots"
      # exec: JOB_PID is the JVM itself, not a subshell around it that SIGTERM would leave the
      # JVM (and its MiniCluster, still reading the broker's topics) running without.
      { exec java "${OPENS_ARGS[@]}" -Xmx1g -Dfieldprof.home="$REPO_DIR" -jar "$CLI_JAR" \
        jobs run --task-slots 2 frequency "${JOB_OPTIONS[@]}" \
        --transactional-id-prefix "load-curve-embedded-$$" --group-id "load-curve-embedded-$$"; } \
        > "$OUT/embedded-job.log" 2>&1 &
      JOB_PID=$!
      deadline=$((SECONDS + 120))
      until grep -q "running on a local MiniCluster" "$OUT/embedded-job.log"; do
        kill -0 "$JOB_PID" 2>/dev/null || { cat "$OUT/embedded-job.log" >&2; fail "jobs run stopped"; }
        ((SECONDS < deadline)) || fail "jobs run did not start within 120 s"
        sleep 1 # polling the job's start line, a real condition
      done
      curve embedded
      kill "$JOB_PID" # SIGTERM: a background job of a script ignores SIGINT
      wait "$JOB_PID" 2>/dev/null || true
      JOB_PID=""
      ;;
    *) fail "unknown runtime $runtime (deploy or embedded)" ;;
  esac
done

step "table and chart ($OUT/load-curve.png)"
# the CLI jar (its manifest names lib/) brings the estimation module, whose chart package draws it
java -cp "$CLI_JAR" "$BENCH_DIR/src/main/java/dev/fieldprof/benchmarks/load/LoadCurveChart.java" \
  "$RESULTS" "$OUT/load-curve.png" \
  | tee "$OUT/load-curve.md"
step "done"
