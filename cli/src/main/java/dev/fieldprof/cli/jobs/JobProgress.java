package dev.fieldprof.cli.jobs;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.FailedCheckpointStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.executiongraph.ErrorInfo;

/**
 * What {@code fieldprof jobs run} tells its user while the job runs: each failure (after which the
 * job restarts), each failed checkpoint and each change of state, one line each. Printing only
 * "running" while the job restarted in a loop hid exactly what the user needed to know.
 */
final class JobProgress {

    /** The facts compared between two looks at the job. */
    record Snapshot(
            String state,
            long failureTimestamp,
            String failure,
            long failedCheckpoints,
            String checkpointFailure,
            int restarts) {
        // restarts: the highest attempt number of any task, which each restart increments.

        static Snapshot of(AccessExecutionGraph graph) {
            ErrorInfo failure = graph.getFailureInfo();
            CheckpointStatsSnapshot checkpoints = graph.getCheckpointStatsSnapshot();
            long failed = 0;
            String checkpointFailure = null;
            if (checkpoints != null) {
                failed = checkpoints.getCounts().getNumberOfFailedCheckpoints();
                FailedCheckpointStats latest = checkpoints.getHistory().getLatestFailedCheckpoint();
                checkpointFailure = latest == null ? null : latest.getFailureMessage();
            }
            // Every restart deploys the tasks again with the next attempt number.
            int restarts = 0;
            for (AccessExecutionVertex vertex : graph.getAllExecutionVertices()) {
                restarts =
                        Math.max(restarts, vertex.getCurrentExecutionAttempt().getAttemptNumber());
            }
            return new Snapshot(
                    graph.getState().name(),
                    failure == null ? 0 : failure.getTimestamp(),
                    failure == null ? null : firstLine(failure.getExceptionAsString()),
                    failed,
                    checkpointFailure == null ? null : firstLine(checkpointFailure),
                    restarts);
        }

        private static String firstLine(String text) {
            int end = text.indexOf('\n');
            return (end < 0 ? text : text.substring(0, end)).strip();
        }
    }

    private Snapshot last = new Snapshot("RUNNING", 0, null, 0, null, 0);

    /** The restart the newest failure led to, 1 for the first. */
    private int restart;

    /** The lines to print for what changed since the last look. */
    List<String> changes(Snapshot now) {
        List<String> lines = new ArrayList<>();
        if (now.failureTimestamp() != last.failureTimestamp() && now.failure() != null) {
            // The attempt numbers catch up with failures that happened between two looks.
            restart = Math.max(restart + 1, now.restarts() + 1);
            lines.add("job failed, Flink restarts it (restart " + restart + "): " + now.failure());
        }
        if (now.failedCheckpoints() > last.failedCheckpoints()) {
            lines.add(
                    "checkpoint failed ("
                            + now.failedCheckpoints()
                            + " so far)"
                            + (now.checkpointFailure() == null
                                    ? ""
                                    : ": " + now.checkpointFailure()));
        }
        if (!now.state().equals(last.state())) {
            lines.add("job " + now.state());
        }
        last = now;
        return lines;
    }
}
