package dev.fieldprof.cli.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.jobs.JobProgress.Snapshot;
import org.junit.jupiter.api.Test;

class JobProgressTest {

    @Test
    void saysEachFailureEachFailedCheckpointAndEachChangeOfStateOnce() {
        JobProgress progress = new JobProgress();
        assertThat(progress.changes(new Snapshot("RUNNING", 0, null, 0, null, 0))).isEmpty();
        assertThat(
                        progress.changes(
                                new Snapshot(
                                        "RUNNING",
                                        0,
                                        null,
                                        2,
                                        "Size of the state is larger than the maximum permitted",
                                        0)))
                .containsExactly(
                        "checkpoint failed (2 so far): Size of the state is larger than the"
                                + " maximum permitted");
        assertThat(
                        progress.changes(
                                new Snapshot(
                                        "RESTARTING",
                                        1000,
                                        "java.lang.IllegalStateException: boom",
                                        2,
                                        "Size of the state is larger than the maximum permitted",
                                        0)))
                .containsExactly(
                        "job failed, Flink restarts it (restart 1):"
                                + " java.lang.IllegalStateException: boom",
                        "job RESTARTING");
        assertThat(
                        progress.changes(
                                new Snapshot(
                                        "RUNNING",
                                        1000,
                                        "java.lang.IllegalStateException: boom",
                                        2,
                                        null,
                                        1)))
                .containsExactly("job RUNNING");
        // Two more failures, one between two looks: the attempt numbers (3) count it.
        assertThat(
                        progress.changes(
                                new Snapshot(
                                        "RESTARTING",
                                        5000,
                                        "java.io.IOException: disk full",
                                        2,
                                        null,
                                        3)))
                .containsExactly(
                        "job failed, Flink restarts it (restart 4): java.io.IOException: disk full",
                        "job RESTARTING");
    }
}
