package dev.fieldprof.client;

import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import java.nio.file.Path;
import java.time.Clock;

/**
 * A child process for {@link KillNineTest}: counts events and checkpoints the open epoch in a tight
 * loop until it is killed with SIGKILL.
 */
public final class StateWriterMain {
    private StateWriterMain() {}

    public static void main(String[] args) throws Exception {
        ClientConfig config =
                ClientConfig.builder()
                        .appVersion("kill:1")
                        .deviceId("victim")
                        .methodCount(5_000)
                        .privacy("default", 1.0, 1, 100_000_000)
                        .checkpointInterval(null)
                        .stateDir(Path.of(args[0]))
                        .build();
        DeviceRuntime runtime =
                DeviceRuntime.start(
                        config,
                        new CallbackReportTransport(r -> {}, 4),
                        new SeededRandomSource(1),
                        Clock.systemUTC());
        boolean announced = false;
        for (long i = 0; ; i++) {
            for (int v = 0; v < 5_000; v += 7) {
                runtime.record((int) ((v + i) % 5_000));
            }
            runtime.checkpoint();
            if (!announced) {
                System.out.println("ready");
                System.out.flush();
                announced = true;
            }
        }
    }
}
