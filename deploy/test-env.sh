# Sourced by the deploy tests (test-deploy.sh, test-faults.sh): a private broker and cluster on
# free loopback ports, with their own run directory, so that a test never meets a running
# deploy/ cluster. The caller defines fail() first.

# free_port: a random loopback port nobody listens on (checked by connecting to it).
free_port() {
  local port
  for _ in $(seq 1 100); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  fail "no free loopback port found"
}

# use_private_cluster NAME: exports a fresh run directory ($TMPDIR/fieldprof-NAME.XXXXXX) and
# free ports for every process, then sizes the cluster for a test (2 slots, 4 partitions unless
# set).
use_private_cluster() {
  export FIELDPROF_RUN_DIR KAFKA_PORT KAFKA_CONTROLLER_PORT FLINK_REST_PORT FLINK_RPC_PORT
  FIELDPROF_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/fieldprof-$1.XXXXXX")"
  KAFKA_PORT="$(free_port)"
  KAFKA_CONTROLLER_PORT="$(free_port)"
  FLINK_REST_PORT="$(free_port)"
  FLINK_RPC_PORT="$(free_port)"
  METRICS_BASE="$(free_port)" # the first of the ten Prometheus ports
  export FLINK_METRICS_PORTS="$METRICS_BASE-$((METRICS_BASE + 9))"
  export FLINK_TASK_SLOTS="${FLINK_TASK_SLOTS:-2}" KAFKA_PARTITIONS="${KAFKA_PARTITIONS:-4}"
}
