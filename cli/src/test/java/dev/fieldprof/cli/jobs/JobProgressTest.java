package dev.fieldprof.cli.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.jobs.JobProgress.Snapshot;
import org.junit.jupiter.api.Test;

class JobProgressTest {

    @Test
    void saysEachFailureEachFailedCheckpointAndEachChangeOfStateOnce() {
        JobProgress progress = new JobProgress();
        assertThat(progress.changes(new Snapshot("RUNNING", 0, null, 0, null))).isEmpty();
        assertThat(
                        progress.changes(
                                new Snapshot(
                                        "RUNNING",
                                        0,
                                        null,
                                        2,
                                        "Size of the state is larger than the maximum permitted")))
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
                                        "Size of the state is larger than the maximum permitted")))
                .containsExactly(
                        "job failed, Flink restarts it: java.lang.IllegalStateException: boom",
                        "job RESTARTING");
        assertThat(
                        progress.changes(
                                new Snapshot(
                                        "RUNNING",
                                        1000,
                                        "java.lang.IllegalStateException: boom",
                                        2,
                                        null)))
                .containsExactly("job RUNNING");
    }
}
