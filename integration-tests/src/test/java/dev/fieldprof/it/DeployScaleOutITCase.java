package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code deploy/test-scaleout.sh}: the frequency job on a separate broker and a Flink session
 * cluster of two TaskManager processes is stopped with a savepoint at parallelism 2 and restored at
 * 4 (every slot of both TaskManagers), survives one TaskManager killed with SIGKILL (restored from
 * its checkpoint on a new one), and is stopped with a savepoint at 4 and restored at 2; through
 * each of the two streams every report the devices made is summed in exactly one estimate window
 * (made = distinct on the report topic = counted, no dead letter), which the script checks and this
 * test reads back from its output.
 */
class DeployScaleOutITCase {
    private static final long TIMEOUT_MINUTES = 12;

    @Test
    void jobCountsEveryReportOnceThroughRescalingAndATaskManagerKilledAcrossTwoTaskManagers()
            throws IOException, InterruptedException {
        String output = DeployScript.runToSuccess("test-scaleout", TIMEOUT_MINUTES);
        assertThat(output)
                .as(output)
                .contains("2 TaskManager(s) of 2 slots")
                .contains(
                        "a. the job runs at parallelism 4 from the savepoint; free slots per"
                                + " TaskManager: 0 0")
                .contains("a. passed")
                .contains("b. killed TaskManager 2")
                .contains("b. the job runs again at parallelism 4, restored from checkpoint")
                .contains("starting it at parallelism 2")
                .contains("b. passed")
                .contains("test-scaleout: PASSED");
        // Both streams end with the load tool's exact line, once each.
        assertThat(output.split("exact     every report counted once", -1)).hasSize(3);
    }
}
