#!/usr/bin/env bash
# Starts a KRaft Kafka broker (broker + controller in one JVM, kafka.Kafka) on loopback, with its
# classpath resolved from Maven (deploy/kafka/pom.xml), formats its storage on first start, waits
# until it answers a metadata request and creates the ten fieldprof topics with `fieldprof topics
# create` (programs and models.edges compacted, report topics stamped with the broker's append
# time, the replay topic with the producer's). Prints the bootstrap address on stdout.
#
# Environment: KAFKA_HOST (127.0.0.1), KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093),
# KAFKA_PARTITIONS (4), KAFKA_HEAP (512m), FIELDPROF_TOPICS (1: create the topics; 0: don't),
# FIELDPROF_RUN_DIR (deploy/run), READY_TIMEOUT_SECONDS (90), FIELDPROF_MVN_ARGS (e.g. -o),
# FIELDPROF_KAFKA_PROPERTIES (a Kafka client properties file for a broker whose listener you
# secured in conf/server.properties: used by the readiness probe and `topics create`),
# FIELDPROF_ACLS (for a broker with an authorizer: the principals of `fieldprof topics acls`, e.g.
# "--device User:device --jobs User:jobs --shuffler User:shuffler --operator User:operator --reader
# User:reader"; the ACLs
# are created after the topics, with FIELDPROF_KAFKA_PROPERTIES as an administrator's login).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MAIN=kafka.Kafka
PIDFILE="$KAFKA_RUN_DIR/kafka.pid"
LOGFILE="$KAFKA_RUN_DIR/kafka.log"
BOOTSTRAP="$KAFKA_HOST:$KAFKA_PORT"
mkdir -p "$KAFKA_RUN_DIR"

if is_running "$PIDFILE"; then
  log "a broker started from $KAFKA_RUN_DIR is already running (pid $(head -n 1 "$PIDFILE"))"
  echo "$BOOTSTRAP"
  exit 0
fi
for port in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
  port_in_use "$KAFKA_HOST" "$port" && die "port $KAFKA_HOST:$port is in use (set KAFKA_PORT / KAFKA_CONTROLLER_PORT)"
done

started=$SECONDS
CP="$(resolve_classpath "$DEPLOY_DIR/kafka/pom.xml" "$FIELDPROF_CACHE_DIR/kafka-classpath.txt")"

# The admin helper is compiled once against the broker's classpath.
TOOLS="$FIELDPROF_CACHE_DIR/kafka-tools"
if [[ ! -f "$TOOLS/KafkaTopics.class" || "$DEPLOY_DIR/tools/KafkaTopics.java" -nt "$TOOLS/KafkaTopics.class" ]]; then
  mkdir -p "$TOOLS"
  "${JAVA}c" -nowarn -cp "$CP" -d "$TOOLS" "$DEPLOY_DIR/tools/KafkaTopics.java" || die "could not compile tools/KafkaTopics.java"
fi
kafka_topics() {
  "$JAVA" -Xmx128m -Dlog4j2.level=ERROR -cp "$TOOLS:$CP" KafkaTopics "$@" ${FIELDPROF_KAFKA_PROPERTIES:+"$FIELDPROF_KAFKA_PROPERTIES"}
}

KAFKA_DATA_DIR="$KAFKA_RUN_DIR/data"
render "$DEPLOY_DIR/conf/server.properties" "$KAFKA_RUN_DIR/server.properties" \
  KAFKA_HOST KAFKA_PORT KAFKA_CONTROLLER_PORT KAFKA_DATA_DIR KAFKA_PARTITIONS

if [[ ! -f "$KAFKA_DATA_DIR/meta.properties" ]]; then
  # What `StorageTool random-uuid` prints (16 random bytes, URL-safe base64 without padding,
  # not starting with '-'), without starting a JVM for it.
  cluster_id="-"
  while [[ "$cluster_id" == -* ]]; do
    cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
  done
  "$JAVA" -Dlog.file="$KAFKA_RUN_DIR/storage-tool.log" -Dlog4j2.configurationFile="$DEPLOY_DIR/conf/log4j2.xml" \
    -cp "$CP" kafka.tools.StorageTool format -t "$cluster_id" -c "$KAFKA_RUN_DIR/server.properties" \
    > "$KAFKA_RUN_DIR/storage-tool.out" 2>&1 \
    || { cat "$KAFKA_RUN_DIR/storage-tool.out" >&2; die "could not format $KAFKA_DATA_DIR"; }
fi

nohup "$JAVA" -Xms"$KAFKA_HEAP" -Xmx"$KAFKA_HEAP" -XX:+UseG1GC \
  -Dlog.file="$LOGFILE" -Dlog4j2.configurationFile="$DEPLOY_DIR/conf/log4j2.xml" \
  -cp "$CP" "$MAIN" "$KAFKA_RUN_DIR/server.properties" > "$KAFKA_RUN_DIR/kafka.out" 2>&1 < /dev/null &
write_pid "$PIDFILE" $! "$MAIN"

wait_until "Kafka broker" "$PIDFILE" "$LOGFILE" kafka_topics await "$BOOTSTRAP"
log "Kafka broker ready after $((SECONDS - started)) s (pid $(head -n 1 "$PIDFILE"), log $LOGFILE)"

if [[ "${FIELDPROF_TOPICS:-1}" != 0 ]]; then
  # The ten fieldprof topics with the settings the jobs need (report topics stamped with the
  # broker's append time), by the same command users run against an existing cluster.
  CLI_JAR="$REPO_DIR/cli/target/fieldprof-cli.jar"
  [[ -f "$CLI_JAR" ]] || die "$CLI_JAR is missing: run 'mvn -B package -DskipTests' first (it creates the topics)"
  "$JAVA" -Xmx256m -jar "$CLI_JAR" topics create --bootstrap "$BOOTSTRAP" --partitions "$KAFKA_PARTITIONS" \
    ${KAFKA_CLIENT_ARGS[@]+"${KAFKA_CLIENT_ARGS[@]}"} >&2 \
    || die "could not create the fieldprof topics"
  if [[ -n "${FIELDPROF_ACLS:-}" ]]; then
    # Each party's least privileges (docs/security.md), by the command users run elsewhere.
    # shellcheck disable=SC2086 # FIELDPROF_ACLS is a list of options
    "$JAVA" -Xmx256m -jar "$CLI_JAR" topics acls --bootstrap "$BOOTSTRAP" $FIELDPROF_ACLS \
      ${KAFKA_CLIENT_ARGS[@]+"${KAFKA_CLIENT_ARGS[@]}"} >&2 \
      || die "could not create the fieldprof ACLs"
  fi
fi
echo "$BOOTSTRAP"
