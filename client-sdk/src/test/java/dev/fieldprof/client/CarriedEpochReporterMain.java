package dev.fieldprof.client;

import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * A child process for {@link SharedStateDirectoryTest}: one run of the app of {@link
 * SharedStateDirectoryTest#carriedConfig} on the shared state directory {@code args[0]}. It starts
 * its runtime (which finds the epoch an earlier run carried), says so by creating {@code args[1]},
 * waits for {@code args[2]} to exist, records one event, ends the epoch and prints {@code outcome
 * OUTCOME}.
 */
public final class CarriedEpochReporterMain {
    private CarriedEpochReporterMain() {}

    public static void main(String[] args) throws Exception {
        Path stateDir = Path.of(args[0]);
        Path ready = Path.of(args[1]);
        Path go = Path.of(args[2]);
        CallbackReportTransport transport = new CallbackReportTransport(r -> {}, 8);
        try (DeviceRuntime runtime =
                DeviceRuntime.start(
                        SharedStateDirectoryTest.carriedConfig(stateDir),
                        transport,
                        new SeededRandomSource(ProcessHandle.current().pid()),
                        Clock.systemUTC())) {
            Files.writeString(ready, "ready", StandardCharsets.UTF_8);
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (!Files.exists(go) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            runtime.record(3);
            System.out.println("outcome " + runtime.endEpoch().outcome());
        }
        transport.close();
    }
}
