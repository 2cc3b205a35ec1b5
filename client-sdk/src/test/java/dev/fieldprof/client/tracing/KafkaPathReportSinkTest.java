package dev.fieldprof.client.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.client.transport.kafka.MetadataAskingBroker;
import dev.fieldprof.schemas.PathReport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.producer.Producer;
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
            // 20 sends that waited would take at least 20 s; half of that leaves a busy machine
            // ample room and still fails them.
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(elapsedMillis).as("20 sends to a dead broker").isLessThan(10_000);

            assertThat(sink.flush(Duration.ofSeconds(30))).isTrue();
            TransportCounters counters = sink.counters();
            assertThat(counters.submitted()).isEqualTo(20);
            assertThat(counters.sent()).isZero();
            assertThat(counters.dropped(DropReason.UNDELIVERED)).isEqualTo(20);
            assertThat(sink.failed()).isEqualTo(20);
        }
    }

    @Test
    void itsThreadOutlivesADeadBrokerCountsTheFailuresAndPrintsNothing() {
        // SLF4J's one-time note about the host's missing logging backend is not the sink's.
        org.slf4j.LoggerFactory.getLogger(KafkaPathReportSinkTest.class);
        java.io.PrintStream hostErr = System.err;
        java.io.PrintStream hostOut = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream watching =
                new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8);
        System.setErr(watching);
        System.setOut(watching);
        try (KafkaPathReportSink sink =
                new KafkaPathReportSink(DEAD_BROKER, "paths", Duration.ofMillis(300))) {
            for (int i = 0; i < 3; i++) {
                sink.send(report(i));
            }
            assertThat(sink.flush(Duration.ofSeconds(60))).isTrue();
            // Each report the broker never took is counted (PathReportsDropped in JMX).
            assertThat(sink.counters().dropped(DropReason.UNDELIVERED)).isEqualTo(3);
            assertThat(sink.publisherAlive()).isTrue();
            assertThat(sink.threadFailures()).isZero();
        } finally {
            System.setErr(hostErr);
            System.setOut(hostOut);
        }
        assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aSendAfterCloseIsCountedNotThrown() {
        KafkaPathReportSink sink =
                new KafkaPathReportSink(DEAD_BROKER, "paths", Duration.ofMillis(200));
        sink.close();
        sink.send(report(0));
        assertThat(sink.counters().dropped(DropReason.CLOSED)).isEqualTo(1);
    }

    @Test
    void createsItsProducerAndFetchesTheTopicBeforeTheFirstReport() throws Exception {
        MetadataAskingBroker broker = new MetadataAskingBroker("paths", true);
        try (KafkaPathReportSink sink = onProducer(broker)) {
            assertThat(broker.askedInTime()).isTrue();
            assertThat(broker.history()).isEmpty();
            sink.send(report(1));
            assertThat(sink.flush(Duration.ofSeconds(10))).isTrue();
            assertThat(broker.history()).extracting(r -> r.key()).containsExactly("device");
            assertThat(sink.sent()).isEqualTo(1);
        }
    }

    /** A broker that cannot be reached at the start takes the sink offline at once. */
    @Test
    void aBrokerUnreachableAtTheStartDropsTheFirstReportWithoutASend() throws Exception {
        MetadataAskingBroker unreachable = new MetadataAskingBroker("paths", false);
        try (KafkaPathReportSink sink = onProducer(unreachable)) {
            assertThat(unreachable.askedInTime()).isTrue();
            sink.send(report(1));
            assertThat(sink.flush(Duration.ofSeconds(10))).isTrue();
            assertThat(unreachable.history()).isEmpty();
            assertThat(sink.counters().dropped(DropReason.UNDELIVERED)).isEqualTo(1);
        }
    }

    private static KafkaPathReportSink onProducer(Producer<String, byte[]> producer) {
        return new KafkaPathReportSink(
                "localhost:9092", "paths", Duration.ofSeconds(5), Map.of(), p -> producer);
    }
}
