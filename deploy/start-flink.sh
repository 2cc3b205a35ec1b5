#!/usr/bin/env bash
# Starts a Flink session cluster on loopback: a JobManager JVM (StandaloneSessionClusterEntrypoint)
# and a TaskManager JVM (TaskManagerRunner, memory sized by BashJavaUtils GET_TM_RESOURCE_PARAMS),
# with the classpath resolved from Maven (deploy/flink/pom.xml). Waits until the REST API reports
# the TaskManager's slots, then prints the REST URL on stdout. When the JobManager runs without its
# TaskManager (the TaskManager crashed or was killed), it starts only a new TaskManager, which
# registers with the JobManager; running jobs then restart on it from their latest checkpoint.
#
# Environment: FLINK_HOST (127.0.0.1), FLINK_REST_PORT (8081), FLINK_RPC_PORT (6123),
# FLINK_TASK_SLOTS (4), FLINK_JM_MEMORY (1024m), FLINK_TM_MEMORY (1280m), FLINK_METRICS_PORTS
# (9249-9258: Prometheus endpoints of the JobManager and the TaskManager),
# FIELDPROF_RUN_DIR (deploy/run), READY_TIMEOUT_SECONDS (90), FIELDPROF_MVN_ARGS (e.g. -o).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

JM_MAIN=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint
TM_MAIN=org.apache.flink.runtime.taskexecutor.TaskManagerRunner
JM_PID="$FLINK_RUN_DIR/jobmanager.pid"
TM_PID="$FLINK_RUN_DIR/taskmanager.pid"
JM_LOG="$FLINK_RUN_DIR/jobmanager.log"
TM_LOG="$FLINK_RUN_DIR/taskmanager.log"
REST_URL="http://$FLINK_HOST:$FLINK_REST_PORT"
CONF="$FLINK_RUN_DIR/conf"
mkdir -p "$CONF" "$FLINK_RUN_DIR/upload" "$FLINK_RUN_DIR/tmp" "$FLINK_RUN_DIR/checkpoints"

if is_running "$JM_PID" && is_running "$TM_PID"; then
  log "a Flink cluster started from $FLINK_RUN_DIR is already running"
  echo "$REST_URL"
  exit 0
fi
is_running "$TM_PID" && die "a TaskManager runs without its JobManager: run deploy/stop-all.sh first"
TM_ONLY=0
if is_running "$JM_PID"; then
  TM_ONLY=1
  log "the JobManager runs without its TaskManager: starting a new TaskManager"
else
  for port in "$FLINK_REST_PORT" "$FLINK_RPC_PORT"; do
    port_in_use "$FLINK_HOST" "$port" && die "port $FLINK_HOST:$port is in use (set FLINK_REST_PORT / FLINK_RPC_PORT)"
  done
fi

started=$SECONDS
CP="$(resolve_classpath "$DEPLOY_DIR/flink/pom.xml" "$FIELDPROF_CACHE_DIR/flink-classpath.txt")"
render "$DEPLOY_DIR/conf/config.yaml" "$CONF/config.yaml" \
  FLINK_HOST FLINK_RPC_PORT FLINK_REST_PORT FLINK_TASK_SLOTS FLINK_JM_MEMORY FLINK_TM_MEMORY FLINK_RUN_DIR \
  FLINK_METRICS_PORTS

# resource_params KIND: BashJavaUtils prints two result lines: JVM memory flags, then -D options.
resource_params() {
  local out
  out="$("$JAVA" -cp "$CP" -Dlog4j2.level=ERROR org.apache.flink.runtime.util.bash.BashJavaUtils "$1" --configDir "$CONF" 2>&1)" \
    || { echo "$out" >&2; die "BashJavaUtils $1 failed"; }
  grep '^BASH_JAVA_UTILS_EXEC_RESULT:' <<< "$out" | sed 's/^BASH_JAVA_UTILS_EXEC_RESULT://'
}

if [[ $TM_ONLY == 0 ]]; then
  mapfile -t jm_params < <(resource_params GET_JM_RESOURCE_PARAMS)
  [[ ${#jm_params[@]} -ge 2 ]] || die "BashJavaUtils GET_JM_RESOURCE_PARAMS printed no memory settings"
  # shellcheck disable=SC2086
  nohup "$JAVA" $OPENS ${jm_params[0]} \
    -Dlog.file="$JM_LOG" -Dlog4j.configurationFile="$DEPLOY_DIR/conf/log4j2.xml" \
    -cp "$CP" "$JM_MAIN" --configDir "$CONF" ${jm_params[1]} \
    > "$FLINK_RUN_DIR/jobmanager.out" 2>&1 < /dev/null &
  write_pid "$JM_PID" $! "$JM_MAIN"
fi

# A resource id of its own per start, so that the wait below recognizes this TaskManager.
TM_ID="taskmanager-$(date +%s)-$RANDOM"
mapfile -t tm_params < <(resource_params GET_TM_RESOURCE_PARAMS)
[[ ${#tm_params[@]} -ge 2 ]] || die "BashJavaUtils GET_TM_RESOURCE_PARAMS printed no memory settings"
# shellcheck disable=SC2086
nohup "$JAVA" $OPENS ${tm_params[0]} \
  -Dlog.file="$TM_LOG" -Dlog4j.configurationFile="$DEPLOY_DIR/conf/log4j2.xml" \
  -cp "$CP" "$TM_MAIN" --configDir "$CONF" ${tm_params[1]} -D "taskmanager.resource-id=$TM_ID" \
  >> "$FLINK_RUN_DIR/taskmanager.out" 2>&1 < /dev/null &
write_pid "$TM_PID" $! "$TM_MAIN"

# Ready when the REST API lists this TaskManager (by its resource id: after a crash the JobManager
# may still list the dead one until its heartbeats fail) and counts its slots.
slots_registered() {
  is_running "$TM_PID" || return 1
  http_get "$REST_URL/taskmanagers" | grep -q "\"id\":\"$TM_ID\",[^}]*\"slotsNumber\":$FLINK_TASK_SLOTS[,}]"
}
wait_until "Flink TaskManager" "$TM_PID" "$TM_LOG" slots_registered
if [[ $TM_ONLY == 1 ]]; then
  log "TaskManager $TM_ID registered after $((SECONDS - started)) s: $FLINK_TASK_SLOTS slots (pid $(head -n 1 "$TM_PID"))"
else
  log "Flink cluster ready after $((SECONDS - started)) s: $FLINK_TASK_SLOTS slots (JobManager pid $(head -n 1 "$JM_PID"), TaskManager pid $(head -n 1 "$TM_PID"), logs in $FLINK_RUN_DIR)"
fi
echo "$REST_URL"
