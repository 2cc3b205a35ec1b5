package dev.fieldprof.client;

import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.schemas.FrequencyReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A child process for {@link SharedStateDirectoryTest}: one program of app {@code args[1]} on the
 * shared state directory {@code args[0]}. It starts its runtime (reading the ledger and budget),
 * says so by creating {@code args[2]}, waits for {@code args[3]} to exist, then ends {@code
 * args[4]} epochs of one event each and prints a line per epoch ({@code outcome OUTCOME}) and per
 * report that left ({@code report APP SEQUENCE}).
 */
public final class SharedStateReporterMain {
    private SharedStateReporterMain() {}

    public static void main(String[] args) throws Exception {
        Path stateDir = Path.of(args[0]);
        String app = args[1];
        Path ready = Path.of(args[2]);
        Path go = Path.of(args[3]);
        int epochs = Integer.parseInt(args[4]);
        List<FrequencyReport> sent = new CopyOnWriteArrayList<>();
        CallbackReportTransport transport = new CallbackReportTransport(sent::add, 64);
        try (DeviceRuntime runtime =
                DeviceRuntime.start(
                        SharedStateDirectoryTest.config(stateDir, app),
                        transport,
                        new SeededRandomSource(app.hashCode()),
                        Clock.systemUTC())) {
            Files.writeString(ready, "ready", StandardCharsets.UTF_8);
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (!Files.exists(go) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            for (int i = 0; i < epochs; i++) {
                runtime.record(i % 4);
                System.out.println("outcome " + runtime.endEpoch().outcome());
            }
        }
        transport.flush(Duration.ofSeconds(30));
        transport.close();
        for (FrequencyReport report : sent) {
            System.out.println("report " + report.getAppVersion() + " " + report.getSequence());
        }
    }
}
