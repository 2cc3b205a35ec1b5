package dev.fieldprof.client.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.Reports;
import dev.fieldprof.client.transport.TransportCounters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka transport with no reachable broker: host calls return at once and never throw, reports
 * wait in the bounded spool, the oldest are dropped past its cap (counted), a spool that cannot be
 * written (a "full disk") counts failures, and a broker that comes back drains the spool in order.
 */
class KafkaReportTransportTest {
    private static final String DEAD_BROKER = "127.0.0.1:1";
    @TempDir Path dir;

    @Test
    void hostCallsReturnPromptlyAndReportsAreSpooledWhileTheBrokerIsDead() throws Exception {
        try (KafkaReportTransport transport =
                new KafkaReportTransport(
                        settings(DEAD_BROKER, dir, Duration.ofMillis(300)).build())) {
            long start = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                transport.submit(Reports.report(i, 50));
            }
            // A submit that waited for the dead broker would wait its 300 ms timeout: 20 of them
            // at least 6 s. Half of that leaves a busy machine ample room and still fails them.
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(elapsedMillis).as("20 submits to a dead broker").isLessThan(3_000);
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            TransportCounters counters = transport.counters();
            assertThat(counters.sent()).isZero();
            assertThat(counters.droppedTotal()).isZero();
            assertThat(counters.spooledNow()).isEqualTo(20);
            assertThat(transport.spooled()).isEqualTo(20);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(f -> f.toString().endsWith(".rep")).count()).isEqualTo(20);
        }
    }

    @Test
    void itsThreadOutlivesABrokerThatDoesNotAnswerCountsItAndPrintsNothing() throws Exception {
        // SLF4J's one-time note about the host's missing logging backend is not the transport's.
        org.slf4j.LoggerFactory.getLogger(KafkaReportTransportTest.class);
        java.io.PrintStream hostErr = System.err;
        java.io.PrintStream hostOut = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream watching =
                new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8);
        System.setErr(watching);
        System.setOut(watching);
        try (KafkaReportTransport transport =
                new KafkaReportTransport(
                        settings(DEAD_BROKER, dir, Duration.ofMillis(300)).build())) {
            for (int i = 0; i < 3; i++) {
                transport.submit(Reports.report(i, 5));
            }
            assertThat(transport.flush(Duration.ofSeconds(60))).isTrue();
            // Each failed send is counted (spooled for a later try, ReportsSpooled in JMX).
            assertThat(transport.counters().spooledNow()).isEqualTo(3);
            assertThat(transport.counters().sent()).isZero();
            assertThat(transport.publisherAlive()).isTrue();
            assertThat(transport.threadFailures()).isZero();
        } finally {
            System.setErr(hostErr);
            System.setOut(hostOut);
        }
        assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void dropsTheOldestPastTheSpoolCapAndCountsThem() throws Exception {
        long oneReport =
                dev.fieldprof.schemas.RecordCodec.of(dev.fieldprof.schemas.FrequencyReport.class)
                        .encode(Reports.report(0, 50))
                        .length;
        try (KafkaReportTransport transport =
                new KafkaReportTransport(
                        settings(DEAD_BROKER, dir, Duration.ofMillis(200))
                                .spoolMaxBytes(3 * oneReport + 2)
                                .build())) {
            for (int i = 0; i < 10; i++) {
                transport.submit(Reports.report(i, 50));
            }
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            TransportCounters counters = transport.counters();
            assertThat(counters.spooledNow()).isEqualTo(3);
            assertThat(counters.dropped(DropReason.SPOOL_FULL)).isEqualTo(7);
        }
    }

    @Test
    void countsWriteFailuresWhenTheSpoolCannotBeWritten() throws Exception {
        Path blocker = dir.resolve("full-disk");
        Files.writeString(blocker, "a file where the spool directory should be");
        try (KafkaReportTransport transport =
                new KafkaReportTransport(
                        settings(DEAD_BROKER, blocker.resolve("spool"), Duration.ofMillis(200))
                                .build())) {
            for (int i = 0; i < 5; i++) {
                transport.submit(Reports.report(i, 10));
            }
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(transport.counters().dropped(DropReason.WRITE_FAILED)).isEqualTo(5);
        }
    }

    @Test
    void drainsTheSpoolInOrderOnceTheBrokerAnswers() throws Exception {
        // First process: dead broker, 4 reports spooled.
        try (KafkaReportTransport transport =
                new KafkaReportTransport(
                        settings(DEAD_BROKER, dir, Duration.ofMillis(200)).build())) {
            for (int i = 0; i < 4; i++) {
                transport.submit(Reports.report(i, 5));
            }
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
        }
        // Next process: a broker that acknowledges everything (MockProducer, auto-complete).
        MockProducer<String, byte[]> mock =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        try (KafkaReportTransport transport =
                new KafkaReportTransport(
                        settings("localhost:9092", dir, Duration.ofMillis(500)).build(),
                        (Properties p) -> (Producer<String, byte[]>) mock)) {
            transport.submit(Reports.report(4, 5));
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(transport.counters().sent()).isEqualTo(5);
            assertThat(transport.spooled()).isZero();
        }
        assertThat(mock.history())
                .extracting(r -> r.key())
                .containsExactly("device-0", "device-1", "device-2", "device-0", "device-1");
        assertThat(mock.history()).allSatisfy(r -> assertThat(r.topic()).isEqualTo("reports"));
    }

    /**
     * The third walkthrough's loss (google-java-format, one report per run of about 2 s): 5 devices
     * that spooled their report at exit delivered it in none of their next runs either, since a run
     * that made no report of its own exited at once, before the publisher's first retry. A flush
     * (as at exit) now waits for a spool the broker has not refused, and the publisher retries the
     * spool as it starts.
     */
    @Test
    void aRunThatMakesNoReportDeliversAnEarlierRunsSpoolBeforeItExits() throws Exception {
        try (KafkaReportTransport transport =
                new KafkaReportTransport(
                        settings(DEAD_BROKER, dir, Duration.ofMillis(200)).build())) {
            transport.submit(Reports.report(0, 5));
            transport.submit(Reports.report(1, 5));
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            // Dead broker: the first retry failed, so a flush does not wait for the spool.
            assertThat(transport.spooled()).isEqualTo(2);
        }
        MockProducer<String, byte[]> broker =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        try (KafkaReportTransport nextRun = onProducer(broker)) {
            assertThat(nextRun.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(nextRun.spooled()).isZero();
            assertThat(broker.history())
                    .extracting(r -> r.key())
                    .containsExactly("device-0", "device-1");
        }
    }

    @Test
    void flushWaitsUntilTheBrokerAnswersEverySendInFlight() throws Exception {
        // A broker that acknowledges only when told (MockProducer without auto-complete).
        MockProducer<String, byte[]> mock =
                new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
        try (KafkaReportTransport transport = onProducer(mock)) {
            transport.submit(Reports.report(0, 5));
            transport.submit(Reports.report(1, 5));
            assertThat(transport.flush(Duration.ofMillis(500))).isFalse();
            assertThat(mock.history()).hasSize(2);
            assertThat(transport.counters().sent()).isZero();

            mock.completeNext();
            assertThat(transport.flush(Duration.ofMillis(500))).isFalse();
            mock.errorNext(new TimeoutException("no answer"));
            assertThat(transport.flush(Duration.ofSeconds(5))).isTrue();
            assertThat(transport.counters().sent()).isEqualTo(1);
            assertThat(transport.spooled()).isEqualTo(1);
        }
    }

    @Test
    void configuresAnIdempotentAcksAllCompressedProducer() throws Exception {
        try (KafkaReportTransport transport =
                new KafkaReportTransport(
                        settings(DEAD_BROKER, dir, Duration.ofSeconds(2)).build())) {
            Properties p = transport.producerProperties();
            assertThat(p.getProperty("acks")).isEqualTo("all");
            assertThat(p.getProperty("enable.idempotence")).isEqualTo("true");
            assertThat(p.getProperty("compression.type")).isEqualTo("lz4");
            assertThat(p.getProperty("max.block.ms")).isEqualTo("2000");
        }
    }

    /**
     * The walkthrough's loss: devices exiting while their producer still waited for the broker's
     * metadata (4 JVMs starting at once on 2 cores) lost their report although the ledger counted
     * it. At exit, what the broker has not taken goes to the spool, and the next run sends it.
     */
    @Test
    void persistsWhatTheBrokerHasNotTakenAtExitAndTheNextRunSendsIt() throws Exception {
        java.util.concurrent.CountDownLatch metadata = new java.util.concurrent.CountDownLatch(1);
        // A producer whose first send waits for metadata, as a real one does before it has
        // reached the broker (max.block.ms).
        MockProducer<String, byte[]> stuck =
                new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer()) {
                    @Override
                    public synchronized java.util.concurrent.Future<
                                    org.apache.kafka.clients.producer.RecordMetadata>
                            send(
                                    org.apache.kafka.clients.producer.ProducerRecord<String, byte[]>
                                            record,
                                    org.apache.kafka.clients.producer.Callback callback) {
                        try {
                            metadata.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return super.send(record, callback);
                    }
                };
        KafkaReportTransport exiting = onProducer(stuck);
        for (int i = 0; i < 3; i++) {
            exiting.submit(Reports.report(i, 5));
        }
        assertThat(exiting.flush(Duration.ofMillis(300))).isFalse();
        assertThat(exiting.persistUndelivered(Duration.ofMillis(300))).isTrue();
        assertThat(exiting.spooled()).isEqualTo(3);
        metadata.countDown(); // the JVM would halt here; let the test's thread go
        exiting.close(Duration.ofMillis(100));

        MockProducer<String, byte[]> broker =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        try (KafkaReportTransport nextRun = onProducer(broker)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (nextRun.spooled() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // polling interval of a real condition: the spool drains
            }
            assertThat(nextRun.spooled()).isZero();
            assertThat(broker.history())
                    .extracting(
                            r ->
                                    dev.fieldprof.schemas.RecordCodec.of(
                                                    dev.fieldprof.schemas.FrequencyReport.class)
                                            .decode(r.value())
                                            .getReportId())
                    .containsExactlyInAnyOrder(
                            Reports.report(0, 5).getReportId(),
                            Reports.report(1, 5).getReportId(),
                            Reports.report(2, 5).getReportId());
        }
    }

    /**
     * A transport on {@code producer} (a MockProducer standing in for the broker), spool in dir.
     */
    /**
     * The second walkthrough's loss: 10 device JVMs exiting at once on a loaded machine (load 12)
     * while their publisher thread was still creating its KafkaProducer: the report was in no
     * queue, no send and no spool, so the exit path saved nothing, and 5 of 10 counted reports
     * vanished. From the moment the publisher takes a report until its outcome it is in flight, and
     * the exit path spools it.
     */
    @Test
    void persistsAReportWhoseProducerIsStillBeingCreatedAtExit() throws Exception {
        java.util.concurrent.CountDownLatch created = new java.util.concurrent.CountDownLatch(1);
        MockProducer<String, byte[]> broker =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        KafkaReportTransport exiting =
                new KafkaReportTransport(
                        settings("localhost:9092", dir, Duration.ofSeconds(5)).build(),
                        (Properties p) -> {
                            try {
                                created.await(); // class loading and setup on a loaded machine
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return broker;
                        });
        exiting.submit(Reports.report(7, 5));
        assertThat(exiting.flush(Duration.ofMillis(300))).isFalse();
        exiting.persistUndelivered(Duration.ofMillis(300));
        assertThat(exiting.spooled()).isEqualTo(1);
        created.countDown(); // the JVM would halt here; let the test's thread go
        exiting.close(Duration.ofMillis(500));

        MockProducer<String, byte[]> next =
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        try (KafkaReportTransport nextRun = onProducer(next)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (nextRun.spooled() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // polling interval of a real condition: the spool drains
            }
            assertThat(nextRun.spooled()).isZero();
            assertThat(next.history()).hasSize(1);
        }
    }

    /**
     * A short-lived program reports at its exit: the producer and the topic's metadata are made
     * ready as the transport starts, before any report, so the exit does not wait for them.
     */
    @Test
    void createsItsProducerAndFetchesTheTopicBeforeTheFirstReport() throws Exception {
        MetadataAskingBroker broker = new MetadataAskingBroker("reports", true);
        try (KafkaReportTransport transport = onProducer(broker)) {
            assertThat(broker.askedInTime()).isTrue();
            transport.submit(Reports.report(1, 5));
            assertThat(transport.flush(Duration.ofSeconds(10))).isTrue();
            assertThat(broker.history()).hasSize(1);
        }
    }

    /** A broker that cannot be reached at the start takes the transport offline at once. */
    @Test
    void aBrokerUnreachableAtTheStartSpoolsTheFirstReportWithoutASend() throws Exception {
        MetadataAskingBroker unreachable = new MetadataAskingBroker("reports", false);
        try (KafkaReportTransport transport = onProducer(unreachable)) {
            assertThat(unreachable.askedInTime()).isTrue();
            transport.submit(Reports.report(1, 5));
            assertThat(transport.flush(Duration.ofSeconds(10))).isTrue();
            assertThat(transport.spooled()).isEqualTo(1);
            assertThat(unreachable.history()).isEmpty();
        }
    }

    /**
     * Told that no report is due in this run, with an empty spool, the transport creates no Kafka
     * client from its start to its close (close joins its thread, so its start step has run).
     */
    @Test
    void toldNoReportIsDueItCreatesNoProducerInARunWithoutReports() throws Exception {
        AtomicInteger created = new AtomicInteger();
        KafkaReportTransport transport =
                quiet(created, new MetadataAskingBroker("reports", true), dir);
        assertThat(transport.connectsAtStart()).isFalse();
        transport.close(Duration.ofSeconds(30));
        assertThat(transport.publisherAlive()).isFalse();
        assertThat(created).hasValue(0);
        assertThat(transport.connected()).isFalse();
    }

    /** A report made after all (say in a new budget period) creates the client and is sent. */
    @Test
    void toldNoReportIsDueItCreatesItsProducerWithTheFirstReport() throws Exception {
        AtomicInteger created = new AtomicInteger();
        MetadataAskingBroker broker = new MetadataAskingBroker("reports", true);
        try (KafkaReportTransport transport = quiet(created, broker, dir)) {
            transport.submit(Reports.report(1, 5));
            transport.submit(Reports.report(2, 5));
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(broker.history())
                    .extracting(r -> r.key())
                    .containsExactly(
                            Reports.report(1, 5).getDeviceId(), Reports.report(2, 5).getDeviceId());
            assertThat(created).hasValue(1);
        }
    }

    /** A spool left by an earlier run is a report due: the transport connects as it starts. */
    @Test
    void toldNoReportIsDueItStillConnectsAtItsStartForASpooledReport() throws Exception {
        try (KafkaReportTransport offline =
                new KafkaReportTransport(
                        settings(DEAD_BROKER, dir, Duration.ofMillis(200)).build())) {
            offline.submit(Reports.report(3, 5));
            assertThat(offline.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(offline.spooled()).isEqualTo(1);
        }
        AtomicInteger created = new AtomicInteger();
        MetadataAskingBroker broker = new MetadataAskingBroker("reports", true);
        try (KafkaReportTransport nextRun = quiet(created, broker, dir)) {
            assertThat(nextRun.connectsAtStart()).isTrue();
            assertThat(broker.askedInTime()).isTrue();
            assertThat(nextRun.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(nextRun.spooled()).isZero();
            assertThat(broker.history())
                    .extracting(r -> r.key())
                    .containsExactly(Reports.report(3, 5).getDeviceId());
            assertThat(created).hasValue(1);
        }
    }

    /** A transport told no report is due, whose factory counts the clients it creates. */
    private static KafkaReportTransport quiet(
            AtomicInteger created, Producer<String, byte[]> producer, Path spool) {
        return new KafkaReportTransport(
                settings("localhost:9092", spool, Duration.ofSeconds(5))
                        .connectAtStart(false)
                        .build(),
                (Properties p) -> {
                    created.incrementAndGet();
                    return producer;
                });
    }

    private KafkaReportTransport onProducer(Producer<String, byte[]> producer) {
        return new KafkaReportTransport(
                settings("localhost:9092", dir, Duration.ofSeconds(5)).build(),
                (Properties p) -> producer);
    }

    /**
     * The settings of these tests: topic "reports", a 1 MiB spool in {@code spool}, a queue of 64.
     */
    private static KafkaTransportSettings.Builder settings(
            String bootstrap, Path spool, Duration timeout) {
        return KafkaTransportSettings.builder(bootstrap, spool)
                .topic("reports")
                .timeout(timeout)
                .spoolMaxBytes(1 << 20)
                .queueCapacity(64);
    }

    @Test
    void countsABrokerRefusingTheCredentialsAndKeepsTheReportSpooled() throws Exception {
        MockProducer<String, byte[]> refusing =
                new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
        try (KafkaReportTransport transport = onProducer(refusing)) {
            transport.submit(Reports.report(0, 5));
            while (refusing.history().isEmpty()) {
                Thread.sleep(10); // polling interval of a real condition: the send is made
            }
            refusing.errorNext(
                    new org.apache.kafka.common.errors.SaslAuthenticationException(
                            "Authentication failed during authentication due to invalid"
                                    + " credentials with SASL mechanism SCRAM-SHA-512"));
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            TransportCounters counters = transport.counters();
            assertThat(counters.authenticationFailures()).isEqualTo(1);
            assertThat(counters.sent()).isZero();
            assertThat(counters.droppedTotal()).isZero();
            assertThat(transport.spooled()).isEqualTo(1);
        }
    }
}
