package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code deploy/test-faults.sh}: the frequency job on a separate broker and Flink session
 * cluster survives a TaskManager killed with SIGKILL (restored from its checkpoint), a broker
 * stopped and restarted, and a device offline for a simulated day that flushes its spool on its
 * next run; after each, every report the devices made is summed in exactly one estimate window
 * (made = distinct on the report topic = counted, no dead letter), which the script checks and this
 * test reads back from its output.
 */
class DeployFaultsITCase {
    private static final long TIMEOUT_MINUTES = 12;

    @Test
    void jobCountsEveryReportOnceThroughTaskManagerKillBrokerRestartAndOfflineDevice()
            throws IOException, InterruptedException {
        String output = DeployScript.runToSuccess("test-faults", TIMEOUT_MINUTES);
        assertThat(output)
                .as(output)
                .contains("a. the job runs again, restored from checkpoint")
                .contains("a. passed")
                .contains("b. passed")
                .contains("waiting in the spool 4")
                .contains("reports made so far 5, sent by this run 5, waiting in the spool 0")
                .contains("5 reports in")
                .contains("c. passed")
                .contains("test-faults: PASSED");
        // Both streamed faults end with the load tool's exact line, once each.
        assertThat(output.split("exact     every report counted once", -1)).hasSize(3);
    }
}
