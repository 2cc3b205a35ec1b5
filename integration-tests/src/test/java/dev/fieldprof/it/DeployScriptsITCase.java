package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code deploy/test-deploy.sh}: a KRaft broker and a Flink session cluster as their own JVMs,
 * the estimation job submitted through the REST API, reports fed and an estimate read back; then
 * the paths job, with google-java-format run on devices under the device agent with path tracing,
 * every path report decoded; and everything stopped. Part of {@code mvn -B verify} so the
 * deployment path is tested like the rest; needs the CLI and job jars, which the reactor packages
 * before this module.
 */
class DeployScriptsITCase {
    private static final long TIMEOUT_MINUTES = 10;

    @Test
    void startsClusterSubmitsJobReadsEstimateAndStops() throws IOException, InterruptedException {
        String output = DeployScript.runToSuccess("test-deploy", TIMEOUT_MINUTES);
        assertThat(output).contains("test-deploy: PASSED");
    }
}
