package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code deploy/test-deploy.sh}: a KRaft broker and a Flink session cluster as their own JVMs,
 * the estimation job submitted through the REST API, reports fed, an estimate read back and
 * everything stopped. Part of {@code mvn -B verify} so the deployment path is tested like the rest;
 * needs the CLI and job jars, which the reactor packages before this module.
 */
class DeployScriptsITCase {
    private static final long TIMEOUT_MINUTES = 10;

    @Test
    void startsClusterSubmitsJobReadsEstimateAndStops() throws IOException, InterruptedException {
        Path repository = Path.of("").toAbsolutePath().getParent();
        Path script = repository.resolve("deploy/test-deploy.sh");
        assertThat(script).exists();
        Path log = Path.of("target", "test-deploy.log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        Process process =
                new ProcessBuilder("bash", script.toString())
                        .directory(repository.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        boolean finished = process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        if (!finished) {
            // The script's trap stops the cluster on SIGTERM.
            process.destroy();
            process.waitFor(60, TimeUnit.SECONDS);
        }
        String output = Files.readString(log);
        assertThat(finished)
                .as("finished within %d minutes:%n%s", TIMEOUT_MINUTES, output)
                .isTrue();
        assertThat(process.exitValue()).as("exit status; output:%n%s", output).isZero();
        assertThat(output).contains("test-deploy: PASSED");
    }
}
