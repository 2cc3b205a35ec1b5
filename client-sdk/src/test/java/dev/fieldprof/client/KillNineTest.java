package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process that checkpoints its epoch state in a tight loop with SIGKILL, several times, and
 * checks that the state it leaves is always complete and readable (atomic temp-file + fsync +
 * rename), and that the events it holds only grow across the kills.
 */
class KillNineTest {
    @TempDir Path dir;

    @Test
    void epochStateSurvivesKillNine() throws Exception {
        long previous = 0;
        for (int round = 0; round < 3; round++) {
            Process child =
                    new ProcessBuilder(
                                    Path.of(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-Xmx128m",
                                    "-cp",
                                    System.getProperty(
                                            "surefire.test.class.path",
                                            System.getProperty("java.class.path")),
                                    StateWriterMain.class.getName(),
                                    dir.toString())
                            .redirectErrorStream(true)
                            .start();
            try (BufferedReader out =
                    new BufferedReader(
                            new InputStreamReader(
                                    child.getInputStream(), StandardCharsets.UTF_8))) {
                StringBuilder seen = new StringBuilder();
                String line;
                while ((line = out.readLine()) != null && !line.equals("ready")) {
                    seen.append(line).append('\n'); // until it has written at least once
                }
                assertThat(line).as("child output: %s", seen).isEqualTo("ready");
                child.destroyForcibly(); // SIGKILL on Unix
                child.waitFor();
            }
            ClientConfig config =
                    ClientConfig.builder()
                            .appVersion("kill:1")
                            .deviceId("victim")
                            .methodCount(5_000)
                            .privacy("default", 1.0, 1, 100_000_000)
                            .checkpointInterval(null)
                            .stateDir(dir)
                            .build();
            try (CallbackReportTransport transport = new CallbackReportTransport(r -> {}, 4);
                    DeviceRuntime reader =
                            DeviceRuntime.start(
                                    config,
                                    transport,
                                    new SeededRandomSource(1),
                                    Clock.systemUTC())) {
                DeviceRuntime.RuntimeCounters counters = reader.counters(false);
                assertThat(counters.stateDiscarded()).as("round %d", round).isEmpty();
                assertThat(reader.openEpochEvents()).isGreaterThan(previous);
                previous = reader.openEpochEvents();
            }
        }
    }
}
