# Sourced by the deploy tests (test-deploy.sh, test-faults.sh): a private broker and cluster on
# free loopback ports, with their own run directory, so that a test never meets a running
# deploy/ cluster. The caller defines fail() first.

# free_port: a random loopback port nobody listens on (checked by connecting to it), below the
# kernel's ephemeral range: a port in that range can be the local end of any client connection
# (there are many on loopback here) and then a server cannot bind it (seen: Flink's RPC port).
# Ports already handed out by pick_port.
FREE_PORTS_TAKEN=" "
free_port() {
  local port low=20000 high
  high=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  (( high > low + 1000 )) || high=32768
  for _ in $(seq 1 200); do
    port=$((low + RANDOM % (high - low - 10)))
    [[ "$FREE_PORTS_TAKEN" == *" $port "* ]] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  fail "no free loopback port found"
}

# pick_port NAME: sets the variable NAME to a free port no earlier pick_port gave (free_port,
# in its $(...) subshell, skips the ports recorded here; only this shell can record them).
pick_port() {
  local port
  port="$(free_port)"
  FREE_PORTS_TAKEN+="$port "
  printf -v "$1" '%s' "$port"
}

# use_private_cluster NAME: exports a fresh run directory ($TMPDIR/fieldprof-NAME.XXXXXX) and
# free ports for every process, then sizes the cluster for a test (2 slots, 4 partitions unless
# set).
use_private_cluster() {
  export FIELDPROF_RUN_DIR KAFKA_PORT KAFKA_CONTROLLER_PORT FLINK_REST_PORT FLINK_RPC_PORT
  FIELDPROF_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/fieldprof-$1.XXXXXX")"
  pick_port KAFKA_PORT
  pick_port KAFKA_CONTROLLER_PORT
  pick_port FLINK_REST_PORT
  pick_port FLINK_RPC_PORT
  pick_port METRICS_BASE # the first of the ten Prometheus ports
  export FLINK_METRICS_PORTS="$METRICS_BASE-$((METRICS_BASE + 9))"
  export FLINK_TASK_SLOTS="${FLINK_TASK_SLOTS:-2}" KAFKA_PARTITIONS="${KAFKA_PARTITIONS:-4}"
}

# end_private_cluster NAME STATUS SECONDS: the end of a deploy test, from its EXIT trap: stops
# the cluster; on failure shows the last errors of each process's log and keeps the run
# directory (kept too with KEEP_RUN_DIR=1), else deletes it; on success prints NAME: PASSED.
end_private_cluster() {
  local name="$1" status="$2" took="$3" log
  "$DEPLOY_DIR/stop-all.sh" >/dev/null 2>&1 || echo "$name: stop-all.sh failed" >&2
  if [[ $status != 0 ]]; then
    for log in "$FIELDPROF_RUN_DIR"/kafka/kafka.log "$FIELDPROF_RUN_DIR"/flink/jobmanager.log "$FIELDPROF_RUN_DIR"/flink/taskmanager*.log; do
      [[ -f "$log" ]] && { echo "---- last errors of $log" >&2; grep -E "ERROR|Exception" "$log" | tail -n 15 >&2 || true; }
    done
  fi
  if [[ "${KEEP_RUN_DIR:-0}" == 1 || $status != 0 ]]; then
    echo "$name: logs kept in $FIELDPROF_RUN_DIR" >&2
  else
    rm -rf "$FIELDPROF_RUN_DIR"
  fi
  if [[ $status == 0 ]]; then
    echo "$name: PASSED in $took s"
  fi
}
