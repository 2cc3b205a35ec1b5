#!/usr/bin/env bash
# Starts a Flink session cluster on loopback: a JobManager JVM (StandaloneSessionClusterEntrypoint)
# and N TaskManager JVMs (TaskManagerRunner, memory sized by BashJavaUtils GET_TM_RESOURCE_PARAMS;
# N from --taskmanagers N or FLINK_TASKMANAGERS, 1 by default), with the classpath resolved from
# Maven (deploy/flink/pom.xml). Waits until the REST API reports every new TaskManager's slots, then
# prints the REST URL on stdout. When the JobManager runs without some of its TaskManagers (one
# crashed or was killed), it starts only the missing ones (as many as the cluster was started with,
# unless --taskmanagers says otherwise), which register with the JobManager; running jobs then
# restart on them from their latest checkpoint.
#
# TaskManager i writes its pid file and log as taskmanager.pid / taskmanager.log for i = 1 and
# taskmanager-i.pid / taskmanager-i.log for the others.
#
# Environment: FLINK_HOST (127.0.0.1), FLINK_REST_PORT (8081), FLINK_RPC_PORT (6123),
# FLINK_TASKMANAGERS (1), FLINK_TASK_SLOTS (4 per TaskManager), FLINK_JM_MEMORY (1024m),
# FLINK_TM_MEMORY (1280m per TaskManager), FLINK_METRICS_PORTS (9249-9258: Prometheus endpoints
# of the JobManager and each TaskManager), FIELDPROF_RUN_DIR (deploy/run), READY_TIMEOUT_SECONDS
# (90), FIELDPROF_MVN_ARGS (e.g. -o).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TASKMANAGERS_OPTION=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --taskmanagers) [[ $# -ge 2 ]] || die "--taskmanagers needs a number"; TASKMANAGERS_OPTION="$2"; shift 2 ;;
    --taskmanagers=*) TASKMANAGERS_OPTION="${1#*=}"; shift ;;
    *) die "unknown argument '$1' (usage: start-flink.sh [--taskmanagers N])" ;;
  esac
done

JM_MAIN=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint
TM_MAIN=org.apache.flink.runtime.taskexecutor.TaskManagerRunner
JM_PID="$FLINK_RUN_DIR/jobmanager.pid"
JM_LOG="$FLINK_RUN_DIR/jobmanager.log"
# How many TaskManagers the running cluster was started with, for a restart without the option.
TM_COUNT_FILE="$FLINK_RUN_DIR/taskmanagers"
REST_URL="http://$FLINK_HOST:$FLINK_REST_PORT"
CONF="$FLINK_RUN_DIR/conf"
mkdir -p "$CONF" "$FLINK_RUN_DIR/upload" "$FLINK_RUN_DIR/tmp" "$FLINK_RUN_DIR/checkpoints"

# tm_file I EXTENSION: the pid file or log of TaskManager I (1-based).
tm_file() {
  if [[ $1 == 1 ]]; then echo "$FLINK_RUN_DIR/taskmanager.$2"; else echo "$FLINK_RUN_DIR/taskmanager-$1.$2"; fi
}

if [[ -n "$TASKMANAGERS_OPTION" ]]; then
  TASKMANAGERS="$TASKMANAGERS_OPTION"
elif is_running "$JM_PID" && [[ -s "$TM_COUNT_FILE" ]]; then
  TASKMANAGERS="$(cat "$TM_COUNT_FILE")"
else
  TASKMANAGERS="$FLINK_TASKMANAGERS"
fi
[[ "$TASKMANAGERS" =~ ^[1-9][0-9]*$ ]] || die "the number of TaskManagers must be >= 1, got '$TASKMANAGERS'"

missing=()
for ((i = 1; i <= TASKMANAGERS; i++)); do
  is_running "$(tm_file "$i" pid)" || missing+=("$i")
done
if is_running "$JM_PID" && [[ ${#missing[@]} == 0 ]]; then
  log "a Flink cluster started from $FLINK_RUN_DIR is already running ($TASKMANAGERS TaskManagers)"
  echo "$REST_URL"
  exit 0
fi
TM_ONLY=0
if is_running "$JM_PID"; then
  TM_ONLY=1
  log "the JobManager runs without TaskManager(s) ${missing[*]}: starting them"
else
  for tm_pid in "$FLINK_RUN_DIR"/taskmanager.pid "$FLINK_RUN_DIR"/taskmanager-*.pid; do
    is_running "$tm_pid" && die "a TaskManager runs without its JobManager: run deploy/stop-all.sh first"
  done
  for port in "$FLINK_REST_PORT" "$FLINK_RPC_PORT"; do
    port_in_use "$FLINK_HOST" "$port" && die "port $FLINK_HOST:$port is in use (set FLINK_REST_PORT / FLINK_RPC_PORT)"
  done
  echo "$TASKMANAGERS" > "$TM_COUNT_FILE"
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

# Each TaskManager gets a resource id of its own per start, so that the wait below recognizes it.
mapfile -t tm_params < <(resource_params GET_TM_RESOURCE_PARAMS)
[[ ${#tm_params[@]} -ge 2 ]] || die "BashJavaUtils GET_TM_RESOURCE_PARAMS printed no memory settings"
TM_IDS=()
for i in "${missing[@]}"; do
  tm_id="taskmanager-$i-$(date +%s)-$RANDOM"
  TM_IDS+=("$tm_id")
  # shellcheck disable=SC2086
  nohup "$JAVA" $OPENS ${tm_params[0]} \
    -Dlog.file="$(tm_file "$i" log)" -Dlog4j.configurationFile="$DEPLOY_DIR/conf/log4j2.xml" \
    -cp "$CP" "$TM_MAIN" --configDir "$CONF" ${tm_params[1]} -D "taskmanager.resource-id=$tm_id" \
    >> "$(tm_file "$i" out)" 2>&1 < /dev/null &
  write_pid "$(tm_file "$i" pid)" $! "$TM_MAIN"
done

# Ready when the REST API lists the TaskManager (by its resource id: after a crash the JobManager
# may still list the dead one until its heartbeats fail) and counts its slots.
slots_registered() {
  is_running "$1" || return 1
  http_get "$REST_URL/taskmanagers" | grep -q "\"id\":\"$2\",[^}]*\"slotsNumber\":$FLINK_TASK_SLOTS[,}]"
}
pids=()
for n in "${!missing[@]}"; do
  i="${missing[$n]}"
  wait_until "Flink TaskManager $i" "$(tm_file "$i" pid)" "$(tm_file "$i" log)" \
    slots_registered "$(tm_file "$i" pid)" "${TM_IDS[$n]}"
  pids+=("$(head -n 1 "$(tm_file "$i" pid)")")
done
if [[ $TM_ONLY == 1 ]]; then
  log "TaskManager(s) ${missing[*]} registered after $((SECONDS - started)) s: $FLINK_TASK_SLOTS slots each (pids ${pids[*]})"
else
  log "Flink cluster ready after $((SECONDS - started)) s: $TASKMANAGERS TaskManager(s) of $FLINK_TASK_SLOTS slots (JobManager pid $(head -n 1 "$JM_PID"), TaskManager pids ${pids[*]}, logs in $FLINK_RUN_DIR)"
fi
echo "$REST_URL"
