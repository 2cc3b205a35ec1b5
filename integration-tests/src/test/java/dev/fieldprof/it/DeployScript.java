package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the deploy/ test scripts as its own process, its output in {@code target/NAME.log},
 * and returns that output once the script has passed (exit 0) within its time.
 */
final class DeployScript {
    private DeployScript() {}

    /**
     * @param name the script's name without {@code .sh}, e.g. {@code test-deploy}
     * @return everything the script printed
     */
    static String runToSuccess(String name, long timeoutMinutes)
            throws IOException, InterruptedException {
        Path repository = Path.of("").toAbsolutePath().getParent();
        Path script = repository.resolve("deploy/" + name + ".sh");
        assertThat(script).exists();
        Path log = Path.of("target", name + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        Process process =
                new ProcessBuilder("bash", script.toString())
                        .directory(repository.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        boolean finished = process.waitFor(timeoutMinutes, TimeUnit.MINUTES);
        if (!finished) {
            // The script's trap stops the cluster on SIGTERM.
            process.destroy();
            process.waitFor(60, TimeUnit.SECONDS);
        }
        String output = Files.readString(log);
        assertThat(finished).as("finished within %d minutes:%n%s", timeoutMinutes, output).isTrue();
        assertThat(process.exitValue()).as("exit status; output:%n%s", output).isZero();
        return output;
    }
}
