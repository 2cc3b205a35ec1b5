package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.tracing.KafkaPathReportSink;
import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device's path report sink against a real broker that is not there yet, or stops: every report
 * handed over while the broker cannot be reached waits in the sink's spool and reaches the topic
 * exactly once after it comes up; a spool over its cap drops exactly the oldest reports beyond it,
 * counted.
 */
class PathReportSinkBrokerOutageITCase {
    private static final RecordCodec<PathReport> CODEC = RecordCodec.of(PathReport.class);
    private static final int REPORTS = 30;
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private static final long SPOOL_BYTES = 16 << 20;

    @TempDir Path dir;

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder().partitions(1).taskSlots(1).build();

    @Test
    void reportsHandedOverBeforeTheBrokerCameUpReachTheTopicOnceItDoes() throws Exception {
        String topic = RUNTIME.createRandomTopic(1, false);
        RUNTIME.stopBroker();
        try (KafkaPathReportSink sink =
                new KafkaPathReportSink(
                        RUNTIME.bootstrapServers(), topic, TIMEOUT, dir, SPOOL_BYTES)) {
            sendThenRestartTheBroker(sink, 0);
            assertEveryReportOnTheTopicOnce(sink, topic);
        }
    }

    @Test
    void reportsWhoseFirstSendsTimedOutReachTheTopicOnceTheBrokerAnswers() throws Exception {
        String topic = RUNTIME.createRandomTopic(1, false);
        try (KafkaPathReportSink sink =
                new KafkaPathReportSink(
                        RUNTIME.bootstrapServers(), topic, TIMEOUT, dir, SPOOL_BYTES)) {
            sink.send(report(0));
            assertThat(sink.flush(Duration.ofSeconds(60))).isTrue();
            assertThat(sink.sent()).isEqualTo(1);
            RUNTIME.stopBroker();
            sendThenRestartTheBroker(sink, 1);
            assertEveryReportOnTheTopicOnce(sink, topic);
        }
    }

    /**
     * Hands reports {@code from} to REPORTS - 1 over while the broker is down, then restarts it.
     */
    private static void sendThenRestartTheBroker(KafkaPathReportSink sink, int from) {
        try {
            for (int i = from; i < REPORTS; i++) {
                sink.send(report(i));
            }
            sink.flush(Duration.ofSeconds(30));
        } finally {
            RUNTIME.restartBroker();
        }
    }

    /** Every one of the REPORTS reports reaches the topic exactly once, in order, none dropped. */
    private static void assertEveryReportOnTheTopicOnce(KafkaPathReportSink sink, String topic)
            throws Exception {
        TransportCounters counters = awaitSettled(sink, REPORTS);
        assertThat(idsOn(topic)).as(counters.toString()).containsExactlyElementsOf(ids(0, REPORTS));
        assertThat(counters.sent()).isEqualTo(REPORTS);
        assertThat(counters.droppedTotal()).isZero();
    }

    @Test
    void aSpoolOverItsCapDropsExactlyTheOldestReportsBeyondIt() throws Exception {
        String topic = RUNTIME.createRandomTopic(1, false);
        int size = CODEC.encode(report(0)).length; // every report here encodes to as many bytes
        int kept = 12;
        RUNTIME.stopBroker();
        try (KafkaPathReportSink sink =
                new KafkaPathReportSink(
                        RUNTIME.bootstrapServers(), topic, TIMEOUT, dir, (long) kept * size)) {
            try {
                for (int i = 0; i < REPORTS; i++) {
                    sink.send(report(i));
                }
                sink.flush(Duration.ofSeconds(30));
            } finally {
                RUNTIME.restartBroker();
            }
            TransportCounters counters = awaitSettled(sink, REPORTS);
            assertThat(idsOn(topic))
                    .as(counters.toString())
                    .containsExactlyElementsOf(ids(REPORTS - kept, REPORTS));
            assertThat(counters.sent()).isEqualTo(kept);
            assertThat(counters.dropped(DropReason.SPOOL_FULL)).isEqualTo(REPORTS - kept);
            assertThat(counters.droppedTotal()).isEqualTo(REPORTS - kept);
        }
    }

    /**
     * Polls the sink's counters (a real condition) until every one of {@code handed} reports was
     * sent or dropped and none waits any more, for at most 2 minutes.
     */
    private static TransportCounters awaitSettled(KafkaPathReportSink sink, int handed)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        TransportCounters counters = sink.counters();
        while (counters.sent() + counters.droppedTotal() < handed || counters.spooledNow() > 0) {
            if (System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(50); // polling interval of a real condition
            counters = sink.counters();
        }
        return counters;
    }

    private static List<String> idsOn(String topic) {
        List<String> ids = new ArrayList<>();
        for (byte[] value : RUNTIME.drain(topic, new ByteArrayDeserializer())) {
            ids.add(CODEC.decode(value).getReportId());
        }
        return ids;
    }

    private static List<String> ids(int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int i = from; i < to; i++) {
            ids.add(id(i));
        }
        return ids;
    }

    private static String id(int i) {
        return String.format("p%03d", i);
    }

    private static PathReport report(int i) {
        return PathReport.newBuilder()
                .setReportId(id(i))
                .setDeviceId("outage-device")
                .setAppVersion("it:1.0")
                .setVariant(0)
                .setThread(0)
                .setSequence(i)
                .setModelVersion(0)
                .setEvents(3)
                .setCreatedAtMillis(Instant.ofEpochMilli(1_700_000_000_000L))
                .setCoded(ByteBuffer.wrap(new byte[] {1, 2, 3}))
                .build();
    }
}
