#!/usr/bin/env bash
# Stops what start-flink.sh and start-kafka.sh started (TaskManagers, JobManager, then the broker),
# by the pid files under $FIELDPROF_RUN_DIR. With --clean it also deletes the broker's data and
# the Flink working files, so the next start is a fresh one.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

for tm_pid in "$FLINK_RUN_DIR"/taskmanager.pid "$FLINK_RUN_DIR"/taskmanager-*.pid; do
  if [[ -e "$tm_pid" ]]; then stop_pid "Flink TaskManager" "$tm_pid"; fi
done
stop_pid "Flink JobManager" "$FLINK_RUN_DIR/jobmanager.pid"
stop_pid "Kafka broker" "$KAFKA_RUN_DIR/kafka.pid"

if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$KAFKA_RUN_DIR/data" "$FLINK_RUN_DIR/upload" "$FLINK_RUN_DIR/tmp" "$FLINK_RUN_DIR/checkpoints"
  log "deleted the broker data and Flink working files under $FIELDPROF_RUN_DIR"
fi
