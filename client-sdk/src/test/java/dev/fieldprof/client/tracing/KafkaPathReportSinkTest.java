package dev.fieldprof.client.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.schemas.PathReport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The path sink with no reachable broker: the tracer's call (made on a host thread) returns at
 * once, and every report ends up counted as undelivered, none lost without a count.
 */
class KafkaPathReportSinkTest {
    private static final String DEAD_BROKER = "127.0.0.1:1";

    private static PathReport report(int i) {
        return PathReport.newBuilder()
                .setReportId("p" + i)
                .setDeviceId("device")
                .setAppVersion("app:1")
                .setVariant(0)
                .setThread(0)
                .setSequence(i)
                .setModelVersion(0)
                .setEvents(3)
                .setCreatedAtMillis(Instant.ofEpochMilli(1_700_000_000_000L + i))
                .setCoded(ByteBuffer.wrap(new byte[] {1, 2, 3}))
                .build();
    }

    @Test
    void sendReturnsAtOnceAndCountsWhatADeadBrokerNeverAcknowledged() {
        // A producer called on this thread would wait up to the 1 s timeout for metadata.
        try (KafkaPathReportSink sink =
                new KafkaPathReportSink(DEAD_BROKER, "paths", Duration.ofSeconds(1))) {
            long start = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                sink.send(report(i));
            }
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(elapsedMillis).as("20 sends to a dead broker").isLessThan(500);

            assertThat(sink.flush(Duration.ofSeconds(30))).isTrue();
            TransportCounters counters = sink.counters();
            assertThat(counters.submitted()).isEqualTo(20);
            assertThat(counters.sent()).isZero();
            assertThat(counters.dropped(DropReason.UNDELIVERED)).isEqualTo(20);
            assertThat(sink.failed()).isEqualTo(20);
        }
    }

    @Test
    void aSendAfterCloseIsCountedNotThrown() {
        KafkaPathReportSink sink =
                new KafkaPathReportSink(DEAD_BROKER, "paths", Duration.ofMillis(200));
        sink.close();
        sink.send(report(0));
        assertThat(sink.counters().dropped(DropReason.CLOSED)).isEqualTo(1);
    }
}
