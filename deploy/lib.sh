# Shared by the deploy/ scripts (sourced, not run). Settings come from environment variables;
# every one has a loopback default.

DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$DEPLOY_DIR/.." && pwd)"
FIELDPROF_RUN_DIR="${FIELDPROF_RUN_DIR:-$DEPLOY_DIR/run}"
# Resolved classpaths are kept here, shared by every run directory (test runs use their own).
FIELDPROF_CACHE_DIR="${FIELDPROF_CACHE_DIR:-$DEPLOY_DIR/run/cache}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
MVN="${MVN:-mvn}"
# Extra Maven arguments, e.g. FIELDPROF_MVN_ARGS=-o on a machine without network.
FIELDPROF_MVN_ARGS="${FIELDPROF_MVN_ARGS:-}"

KAFKA_HOST="${KAFKA_HOST:-127.0.0.1}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_PARTITIONS="${KAFKA_PARTITIONS:-4}"
KAFKA_HEAP="${KAFKA_HEAP:-512m}"
KAFKA_RUN_DIR="$FIELDPROF_RUN_DIR/kafka"

FLINK_HOST="${FLINK_HOST:-127.0.0.1}"
FLINK_REST_PORT="${FLINK_REST_PORT:-8081}"
FLINK_RPC_PORT="${FLINK_RPC_PORT:-6123}"
FLINK_TASKMANAGERS="${FLINK_TASKMANAGERS:-1}"
FLINK_TASK_SLOTS="${FLINK_TASK_SLOTS:-4}"
FLINK_METRICS_PORTS="${FLINK_METRICS_PORTS:-9249-9258}"
FLINK_JM_MEMORY="${FLINK_JM_MEMORY:-1024m}"
FLINK_TM_MEMORY="${FLINK_TM_MEMORY:-1280m}"
FLINK_RUN_DIR="$FIELDPROF_RUN_DIR/flink"

READY_TIMEOUT_SECONDS="${READY_TIMEOUT_SECONDS:-90}"

# Kafka client properties (security.protocol, sasl.*, ssl.*) for a secured broker: passed
# unchanged to every fieldprof command these scripts run (--kafka-properties) and to the
# broker's readiness probe. Empty: plaintext.
FIELDPROF_KAFKA_PROPERTIES="${FIELDPROF_KAFKA_PROPERTIES:-}"
KAFKA_CLIENT_ARGS=()
if [[ -n "$FIELDPROF_KAFKA_PROPERTIES" ]]; then
  [[ -r "$FIELDPROF_KAFKA_PROPERTIES" ]] \
    || { echo "$(basename "$0"): FIELDPROF_KAFKA_PROPERTIES: cannot read $FIELDPROF_KAFKA_PROPERTIES" >&2; exit 1; }
  FIELDPROF_KAFKA_PROPERTIES="$(cd "$(dirname "$FIELDPROF_KAFKA_PROPERTIES")" && pwd)/$(basename "$FIELDPROF_KAFKA_PROPERTIES")"
  KAFKA_CLIENT_ARGS=(--kafka-properties "$FIELDPROF_KAFKA_PROPERTIES")
fi

# The Java 17 opens Flink needs: the JobManager runs a REST-submitted job's main().
OPENS="--add-exports=java.base/sun.net.util=ALL-UNNAMED \
--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED \
--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED \
--add-opens=java.base/java.lang=ALL-UNNAMED \
--add-opens=java.base/java.net=ALL-UNNAMED \
--add-opens=java.base/java.io=ALL-UNNAMED \
--add-opens=java.base/java.nio=ALL-UNNAMED \
--add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
--add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
--add-opens=java.base/java.text=ALL-UNNAMED \
--add-opens=java.base/java.time=ALL-UNNAMED \
--add-opens=java.base/java.util=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED"

die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

log() {
  echo "$(basename "$0"): $*" >&2
}

# resolve_classpath POM OUTPUT: the runtime classpath of a deploy pom, resolved by Maven once
# and reused while the pom is unchanged and every jar still exists.
resolve_classpath() {
  local pom="$1" out="$2"
  if [[ -s "$out" && "$out" -nt "$pom" ]]; then
    local missing=0 jar
    IFS=':' read -r -a jars < "$out"
    for jar in "${jars[@]}"; do [[ -f "$jar" ]] || { missing=1; break; }; done
    if [[ $missing == 0 ]]; then cat "$out"; return 0; fi
  fi
  mkdir -p "$(dirname "$out")"
  # shellcheck disable=SC2086
  "$MVN" -B -q $FIELDPROF_MVN_ARGS -f "$pom" dependency:build-classpath \
    -Dmdep.outputFile="$out" -Dmdep.includeScope=runtime >&2 \
    || die "could not resolve the classpath of $pom"
  cat "$out"
}

# render TEMPLATE OUTPUT NAME...: copies the template, replacing @NAME@ by the value of $NAME.
render() {
  local template="$1" out="$2" name value
  shift 2
  cp "$template" "$out.tmp"
  for name in "$@"; do
    value="${!name}"
    value="${value//\\/\\\\}"
    value="${value//|/\\|}"
    value="${value//&/\\&}"
    sed -i "s|@${name}@|${value}|g" "$out.tmp"
  done
  mv "$out.tmp" "$out"
}

# is_running PIDFILE: true when the file names a live process that is still one of ours (its
# command line holds the main class recorded on the pid file's second line), not a reused pid.
is_running() {
  [[ -f "$1" ]] || return 1
  local pid main
  { read -r pid; read -r main; } < "$1" || true
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  [[ -z "$main" ]] || tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$main"
}

# is_alive PIDFILE: true while the process of the pid file exists, whatever it runs yet.
is_alive() {
  local pid
  [[ -f "$1" ]] && pid="$(head -n 1 "$1")" && [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null
}

# write_pid PIDFILE PID MAIN: records a started JVM and its main class.
write_pid() {
  printf '%s\n%s\n' "$2" "$3" > "$1"
}

# http_get URL: the body of a successful GET on stdout (curl when present, else bash's /dev/tcp).
http_get() {
  if command -v curl >/dev/null 2>&1; then
    curl -sf --max-time 5 "$1"
    return
  fi
  local rest="${1#http://}" hostport path host port
  hostport="${rest%%/*}"
  path="/${rest#*/}"
  [[ "$rest" == */* ]] || path="/"
  host="${hostport%%:*}"
  port="${hostport##*:}"
  exec 3<>"/dev/tcp/$host/$port" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: %s\r\n\r\n' "$path" "$hostport" >&3
  local response
  response="$(cat <&3)"
  exec 3<&-
  [[ "$response" == "HTTP/1."?" 200"* ]] || return 1
  printf '%s' "${response#*$'\r\n\r\n'}"
}

# port_in_use HOST PORT: true when something accepts connections there.
port_in_use() {
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# wait_until DESCRIPTION PIDFILE LOG COMMAND...: runs COMMAND until it succeeds, failing when the
# process of PIDFILE dies or READY_TIMEOUT_SECONDS pass (then the log's tail is shown).
wait_until() {
  local what="$1" pidfile="$2" logfile="$3"
  shift 3
  local deadline=$((SECONDS + READY_TIMEOUT_SECONDS))
  until "$@" >/dev/null 2>&1; do
    # Alive, not is_running: a process started a moment ago may not have exec'd java yet (its
    # command line is still the script's), and is_running would take it for one that exited.
    # The main-class check guards against stale pid files, which a process we just started is not.
    if ! is_alive "$pidfile"; then
      tail -n 30 "$logfile" >&2 2>/dev/null || true
      die "$what exited before it was ready (log: $logfile)"
    fi
    if ((SECONDS >= deadline)); then
      tail -n 30 "$logfile" >&2 2>/dev/null || true
      die "$what not ready after ${READY_TIMEOUT_SECONDS} s (log: $logfile)"
    fi
    sleep 1 # polling interval of a real condition
  done
}

# stop_pid NAME PIDFILE: SIGTERM, then SIGKILL after 30 s; removes the pid file.
stop_pid() {
  local name="$1" pidfile="$2" pid
  if ! is_running "$pidfile"; then
    rm -f "$pidfile"
    return 0
  fi
  pid="$(head -n 1 "$pidfile")"
  kill "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + 30))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      log "$name (pid $pid) ignored SIGTERM for 30 s: killing it"
      kill -9 "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.2
  done
  rm -f "$pidfile"
  log "stopped $name (pid $pid)"
}
