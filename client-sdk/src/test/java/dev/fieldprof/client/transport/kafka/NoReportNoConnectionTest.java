package dev.fieldprof.client.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.DeviceRuntime.Outcome;
import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A device runtime on the Kafka transport connects to the broker only when a report is due: a run
 * whose epoch stays below k, or whose report the budget refuses, creates no producer, so the broker
 * learns nothing of that run (no address, start time or run length).
 */
class NoReportNoConnectionTest {
    private static final double EPSILON = Math.log(9);
    private static final int K = 10;
    private static final Clock NOON =
            Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC);
    @TempDir Path dir;

    private ClientConfig.Builder config() {
        return ClientConfig.builder()
                .appVersion("demo:1.0")
                .deviceId("device-7")
                .methodCount(6)
                .privacy("default", EPSILON, 1, K)
                .checkpointInterval(null)
                .stateDir(dir.resolve("state"));
    }

    @Test
    void aRunWhoseEpochStaysBelowKNeverConnects() throws Exception {
        AtomicInteger created = new AtomicInteger();
        KafkaReportTransport transport = counting(created);
        try (DeviceRuntime runtime =
                DeviceRuntime.start(
                        config().noBudget().build(), transport, new SeededRandomSource(1), NOON)) {
            for (int i = 0; i < K - 1; i++) {
                runtime.record(i % 6);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.CARRIED_FORWARD);
        }
        transport.close(Duration.ofSeconds(10));
        assertThat(created).hasValue(0);
    }

    @Test
    void aRunWhoseReportTheBudgetRefusesNeverConnects() throws Exception {
        // One report of K ln 9 fits the day's budget; the next run's does not.
        ClientConfig config = config().budget(1.5 * K * EPSILON, Duration.ofDays(1)).build();
        try (CallbackReportTransport earlier = new CallbackReportTransport(r -> {}, 8);
                DeviceRuntime runtime =
                        DeviceRuntime.start(config, earlier, new SeededRandomSource(1), NOON)) {
            fullEpoch(runtime);
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
        }
        AtomicInteger created = new AtomicInteger();
        KafkaReportTransport transport = counting(created);
        try (DeviceRuntime runtime =
                DeviceRuntime.start(config, transport, new SeededRandomSource(2), NOON)) {
            fullEpoch(runtime);
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.SKIPPED_BY_BUDGET);
        }
        transport.close(Duration.ofSeconds(10));
        assertThat(created).hasValue(0);
    }

    @Test
    void aRunWithAReportDueConnectsOnce() throws Exception {
        AtomicInteger created = new AtomicInteger();
        MetadataAskingBroker broker = new MetadataAskingBroker("reports", true);
        KafkaReportTransport transport = counting(created, broker);
        try (DeviceRuntime runtime =
                DeviceRuntime.start(
                        config().noBudget().build(), transport, new SeededRandomSource(1), NOON)) {
            fullEpoch(runtime);
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
        }
        assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
        transport.close(Duration.ofSeconds(10));
        assertThat(created).hasValue(1);
        assertThat(broker.history()).extracting(r -> r.key()).containsExactly("device-7");
    }

    private static void fullEpoch(DeviceRuntime runtime) {
        for (int i = 0; i < K; i++) {
            runtime.record(i % 6);
        }
    }

    private KafkaReportTransport counting(AtomicInteger created) {
        return counting(created, new MetadataAskingBroker("reports", true));
    }

    private KafkaReportTransport counting(AtomicInteger created, MetadataAskingBroker broker) {
        return new KafkaReportTransport(
                "localhost:9092",
                "reports",
                Duration.ofSeconds(5),
                dir.resolve("spool"),
                1 << 20,
                64,
                Map.of(),
                (Properties p) -> {
                    created.incrementAndGet();
                    return broker;
                });
    }
}
