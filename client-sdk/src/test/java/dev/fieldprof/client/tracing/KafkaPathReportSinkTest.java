package dev.fieldprof.client.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.client.transport.kafka.MetadataAskingBroker;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The path sink with no reachable broker: the tracer's call (made on a host thread) returns at
 * once, and every report waits in the bounded spool, none dropped but those beyond its cap, each
 * counted.
 */
class KafkaPathReportSinkTest {
    private static final String DEAD_BROKER = "127.0.0.1:1";
    private static final long SPOOL_BYTES = 16 << 20;

    @TempDir Path dir;

    static PathReport report(int i) {
        return PathReport.newBuilder()
                .setReportId(String.format("p%03d", i))
                .setDeviceId("device")
                .setAppVersion("app:1")
                .setVariant(0)
                .setThread(0)
                .setSequence(i)
                .setModelVersion(0)
                .setEvents(3)
                .setCreatedAtMillis(Instant.ofEpochMilli(1_700_000_000_000L))
                .setCoded(ByteBuffer.wrap(new byte[] {1, 2, 3}))
                .build();
    }

    @Test
    void sendReturnsAtOnceAndSpoolsWhatADeadBrokerCannotTake() {
        // A producer called on this thread would wait up to the 1 s timeout for metadata.
        try (KafkaPathReportSink sink =
                new KafkaPathReportSink(
                        DEAD_BROKER, "paths", Duration.ofSeconds(1), dir, SPOOL_BYTES)) {
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
            assertThat(counters.spooled()).isEqualTo(20);
            assertThat(counters.spooledNow()).isEqualTo(20);
            assertThat(counters.droppedTotal()).isZero();
            assertThat(sink.spooled()).isEqualTo(20);
        }
    }

    /** Past the spool's cap the oldest reports go, each counted as SPOOL_FULL. */
    @Test
    void aFullSpoolDropsExactlyTheOldestReportsBeyondItsCap() {
        int size = RecordCodec.of(PathReport.class).encode(report(0)).length;
        try (KafkaPathReportSink sink =
                new KafkaPathReportSink(
                        DEAD_BROKER, "paths", Duration.ofMillis(500), dir, 12L * size)) {
            for (int i = 0; i < 20; i++) {
                sink.send(report(i));
            }
            assertThat(sink.flush(Duration.ofSeconds(30))).isTrue();
            TransportCounters counters = sink.counters();
            assertThat(counters.spooledNow()).isEqualTo(12);
            assertThat(counters.dropped(DropReason.SPOOL_FULL)).isEqualTo(8);
            assertThat(counters.droppedTotal()).isEqualTo(8);
            assertThat(sink.failed()).isEqualTo(8);
        }
    }

    /** What one run spooled is there for the next run's sink, which sends it once it can. */
    @Test
    void theNextRunSendsWhatAnEarlierRunSpooled() throws Exception {
        try (KafkaPathReportSink dead =
                new KafkaPathReportSink(
                        DEAD_BROKER, "paths", Duration.ofMillis(500), dir, SPOOL_BYTES)) {
            for (int i = 0; i < 3; i++) {
                dead.send(report(i));
            }
            assertThat(dead.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(dead.spooled()).isEqualTo(3);
        }
        MetadataAskingBroker broker = new MetadataAskingBroker("paths", true);
        try (KafkaPathReportSink sink = onProducer(broker)) {
            assertThat(broker.askedInTime()).isTrue();
            assertThat(sink.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(broker.history())
                    .extracting(r -> RecordCodec.of(PathReport.class).decode(r.value()))
                    .extracting(r -> r.getReportId().toString())
                    .containsExactly("p000", "p001", "p002");
            assertThat(sink.sent()).isEqualTo(3);
            assertThat(sink.spooled()).isZero();
        }
    }

    @Test
    void itsThreadOutlivesADeadBrokerCountsTheReportsAndPrintsNothing() {
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
                new KafkaPathReportSink(
                        DEAD_BROKER, "paths", Duration.ofMillis(300), dir, SPOOL_BYTES)) {
            for (int i = 0; i < 3; i++) {
                sink.send(report(i));
            }
            assertThat(sink.flush(Duration.ofSeconds(60))).isTrue();
            // Each report the broker has not taken waits (PathReportsSpooled in JMX).
            assertThat(sink.counters().spooledNow()).isEqualTo(3);
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
                new KafkaPathReportSink(
                        DEAD_BROKER, "paths", Duration.ofMillis(200), dir, SPOOL_BYTES);
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

    /**
     * A broker whose metadata cannot be had at the start takes the sink offline: the first report
     * waits in the spool instead of being dropped, and goes once a send gets through (this broker
     * takes sends).
     */
    @Test
    void aBrokerUnreachableAtTheStartKeepsTheFirstReportUntilASendGetsThrough() throws Exception {
        MetadataAskingBroker unreachable = new MetadataAskingBroker("paths", false);
        try (KafkaPathReportSink sink = onProducer(unreachable)) {
            assertThat(unreachable.askedInTime()).isTrue();
            sink.send(report(1));
            assertThat(sink.flush(Duration.ofSeconds(10))).isTrue();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (sink.sent() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(20); // polling interval of a real condition (the spool's retry)
            }
            assertThat(unreachable.history()).extracting(r -> r.key()).containsExactly("device");
            assertThat(sink.counters().spooled()).isEqualTo(1);
            assertThat(sink.counters().spooledNow()).isZero();
            assertThat(sink.counters().droppedTotal()).isZero();
        }
    }

    /**
     * At exit a send still in flight goes to the spool; the broker's acknowledgement before the JVM
     * halts takes it out again, so that the next run does not send it twice.
     */
    @Test
    void aSendInFlightAtExitThatIsThenAcknowledgedLeavesTheSpoolAgain() throws Exception {
        MockProducer<String, byte[]> broker =
                new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
        try (KafkaPathReportSink sink = onProducer(broker)) {
            sink.send(report(0));
            awaitHandedToProducer(broker);
            assertThat(sink.persistUndelivered(Duration.ofSeconds(10))).isTrue();
            assertThat(sink.counters().spooledNow()).isEqualTo(1);

            assertThat(broker.completeNext()).isTrue();
            TransportCounters counters = sink.counters();
            assertThat(counters.sent()).isEqualTo(1);
            assertThat(counters.spooled()).isEqualTo(1);
            assertThat(counters.spooledNow()).isZero();
            assertThat(sink.spooled()).isZero();
        }
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    /** ... and a failure leaves it spooled once, for the next run. */
    @Test
    void aSendInFlightAtExitThatThenFailsStaysSpooledOnce() throws Exception {
        MockProducer<String, byte[]> broker =
                new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
        try (KafkaPathReportSink sink = onProducer(broker)) {
            sink.send(report(0));
            awaitHandedToProducer(broker);
            assertThat(sink.persistUndelivered(Duration.ofSeconds(10))).isTrue();

            assertThat(broker.errorNext(new TimeoutException("not acknowledged"))).isTrue();
            TransportCounters counters = sink.counters();
            assertThat(counters.sent()).isZero();
            assertThat(counters.spooled()).isEqualTo(1);
            assertThat(counters.spooledNow()).isEqualTo(1);
            assertThat(counters.droppedTotal()).isZero();
        }
    }

    /**
     * A program that exits while its sink's producer still waits for the broker's metadata (a cold
     * JVM on a loaded machine): the reports queued meanwhile go to the spool, and the next run
     * sends each of them once.
     */
    @Test
    void reportsQueuedWhileTheProducerStillConnectsAtExitAreSentByTheNextRun() throws Exception {
        java.util.concurrent.CountDownLatch connected = new java.util.concurrent.CountDownLatch(1);
        MockProducer<String, byte[]> connecting =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer()) {
                    @Override
                    public synchronized java.util.List<org.apache.kafka.common.PartitionInfo>
                            partitionsFor(String topic) {
                        try {
                            connected.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return java.util.List.of();
                    }
                };
        try (KafkaPathReportSink run1 = onProducer(connecting)) {
            for (int i = 0; i < 5; i++) {
                run1.send(report(i));
            }
            // The publisher thread is held in its metadata wait: nothing it can finish.
            assertThat(run1.flush(Duration.ofMillis(200))).isFalse();
            assertThat(run1.persistUndelivered(Duration.ofSeconds(1))).isTrue();
            assertThat(run1.counters().spooledNow()).isEqualTo(5);
            connected.countDown();
        }
        assertThat(connecting.history()).isEmpty();

        MockProducer<String, byte[]> broker =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        try (KafkaPathReportSink run2 = onProducer(broker)) {
            assertThat(run2.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(broker.history())
                    .extracting(r -> RecordCodec.of(PathReport.class).decode(r.value()))
                    .extracting(r -> r.getReportId().toString())
                    .containsExactly("p000", "p001", "p002", "p003", "p004");
            assertThat(run2.counters().spooledNow()).isZero();
            assertThat(run2.counters().droppedTotal()).isZero();
        }
    }

    /** Polls (a real condition) until the publisher thread has handed a report to the producer. */
    private static void awaitHandedToProducer(MockProducer<String, byte[]> broker)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (broker.history().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10); // polling interval of a real condition
        }
        assertThat(broker.history()).hasSize(1);
    }

    private KafkaPathReportSink onProducer(Producer<String, byte[]> producer) {
        return new KafkaPathReportSink(
                "localhost:9092",
                "paths",
                Duration.ofSeconds(5),
                dir,
                SPOOL_BYTES,
                Map.of(),
                p -> producer);
    }
}
