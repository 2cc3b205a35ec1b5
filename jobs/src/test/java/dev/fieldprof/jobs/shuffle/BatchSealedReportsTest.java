package dev.fieldprof.jobs.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.ShuffledBatch;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The batching of sealed reports on Flink's operator harness, processing time set by the test. */
class BatchSealedReportsTest {
    private static final RecordCodec<ShuffledBatch> BATCHES = RecordCodec.of(ShuffledBatch.class);
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);
    private static final long MINUTE = Duration.ofMinutes(1).toMillis();
    private static final String APP = "app:1";
    private static final String CONFIG = "shuffled";

    private static KeyedOneInputStreamOperatorTestHarness<
                    Tuple2<String, String>, SealedRecord, ReleasedPart>
            harness(int min, int max, Duration maxWait) throws Exception {
        var harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(
                                new BatchSealedReports(
                                        SealedReports.TOPIC,
                                        min,
                                        max,
                                        Duration.ofMinutes(1),
                                        maxWait,
                                        new BatchParts(BatchParts.MAX_PART_BYTES))),
                        new ShufflerKeys.Group(),
                        Types.TUPLE(Types.STRING, Types.STRING));
        harness.open();
        return harness;
    }

    private static void send(
            KeyedOneInputStreamOperatorTestHarness<
                            Tuple2<String, String>, SealedRecord, ReleasedPart>
                    harness,
            int devices,
            int offset)
            throws Exception {
        for (int d = 0; d < devices; d++) {
            harness.processElement(
                    SealedReports.record("device-" + (offset + d), APP, CONFIG, 1, offset + d),
                    1_000 + offset + d);
        }
    }

    private static List<ShuffledBatch> batches(List<ReleasedPart> parts) {
        return parts.stream().map(p -> BATCHES.decode(p.value)).toList();
    }

    private static List<String> payloads(ShuffledBatch batch) {
        return batch.getSealed().stream().map(SealedReports::text).sorted().toList();
    }

    private static List<String> expectedPayloads(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(
                        d ->
                                new String(
                                        SealedReports.payload("device-" + d, 1),
                                        StandardCharsets.UTF_8))
                .sorted()
                .toList();
    }

    /**
     * n − 1 reports release nothing however often the group is looked at; the n-th makes the next
     * look release one batch of exactly the n, stamped with that look's time, without a device id.
     */
    @Test
    void releasesOnlyOnceTheGroupHoldsTheMinimum() throws Exception {
        var harness = harness(5, 100, Duration.ofDays(1));
        harness.setProcessingTime(0);
        send(harness, 4, 0);
        for (int look = 1; look <= 10; look++) {
            harness.setProcessingTime(look * MINUTE);
        }
        assertThat(harness.extractOutputValues()).isEmpty();

        send(harness, 1, 4);
        assertThat(harness.extractOutputValues())
                .as("released on a look, not on arrival")
                .isEmpty();
        harness.setProcessingTime(11 * MINUTE);

        List<ReleasedPart> parts = harness.extractOutputValues();
        assertThat(parts).hasSize(1);
        ShuffledBatch batch = batches(parts).get(0);
        assertThat(batch.getAppVersion()).isEqualTo(APP);
        assertThat(batch.getConfigId()).isEqualTo(CONFIG);
        assertThat(batch.getBatchSize()).isEqualTo(5);
        assertThat(batch.getMinBatchSize()).isEqualTo(5);
        assertThat(batch.getPart()).isZero();
        assertThat(batch.getParts()).isEqualTo(1);
        assertThat(payloads(batch)).isEqualTo(expectedPayloads(0, 5));
        assertThat(parts.get(0).releasedAtMillis).isEqualTo(11 * MINUTE);
        assertThat(new String(parts.get(0).key, StandardCharsets.UTF_8))
                .isEqualTo(batch.getBatchId() + "/0");
        assertThat(new String(parts.get(0).value, StandardCharsets.ISO_8859_1))
                .doesNotContain("device-");
        assertThat(harness.getSideOutput(ShufflerDeadLetters.TAG)).isNull();

        // The group starts afresh: nothing is held, nothing released twice.
        for (int look = 12; look <= 20; look++) {
            harness.setProcessingTime(look * MINUTE);
        }
        assertThat(harness.extractOutputValues()).hasSize(1);
        harness.close();
    }

    /** A group that reaches the maximum is released at once with exactly the maximum. */
    @Test
    void releasesAtTheMaximumWithoutWaitingForALook() throws Exception {
        var harness = harness(2, 3, Duration.ofDays(1));
        harness.setProcessingTime(0);
        send(harness, 4, 0);

        List<ShuffledBatch> released = batches(harness.extractOutputValues());
        assertThat(released).hasSize(1);
        assertThat(released.get(0).getBatchSize()).isEqualTo(3);
        assertThat(payloads(released.get(0))).isEqualTo(expectedPayloads(0, 3));

        // The fourth waits alone; a fifth lets the next look release both.
        send(harness, 1, 4);
        harness.setProcessingTime(MINUTE);
        released = batches(harness.extractOutputValues());
        assertThat(released).extracting(ShuffledBatch::getBatchSize).containsExactly(3, 2);
        assertThat(payloads(released.get(1))).isEqualTo(expectedPayloads(3, 5));
        assertThat(released.get(0).getBatchId()).isNotEqualTo(released.get(1).getBatchId());
        harness.close();
    }

    /**
     * A group below the minimum when its oldest report has waited the maximum wait releases
     * nothing: each held report is one SHUFFLE_WAIT_EXPIRED dead letter with its SealedReport
     * bytes, and a report that comes later waits afresh.
     */
    @Test
    void deadLettersExactlyTheHeldReportsWhenTheWaitExpires() throws Exception {
        var harness = harness(5, 100, Duration.ofMinutes(10).plusSeconds(30));
        harness.setProcessingTime(0);
        send(harness, 2, 0);
        harness.setProcessingTime(2 * MINUTE);
        send(harness, 1, 2);
        for (int look = 3; look <= 10; look++) {
            harness.setProcessingTime(look * MINUTE);
        }
        assertThat(harness.getSideOutput(ShufflerDeadLetters.TAG)).isNull();

        harness.setProcessingTime(10 * MINUTE + 30_000);

        assertThat(harness.extractOutputValues()).isEmpty();
        List<DeadLetter> letters = new ArrayList<>();
        for (StreamRecord<?> record : harness.getSideOutput(ShufflerDeadLetters.TAG)) {
            letters.add(
                    LETTERS.decode(
                            ((dev.fieldprof.jobs.io.EncodedRecord) record.getValue()).value));
        }
        assertThat(letters)
                .extracting(DeadLetter::getReasonCode)
                .containsOnly(DeadLetterReason.SHUFFLE_WAIT_EXPIRED);
        assertThat(letters)
                .extracting(l -> SealedReports.CODEC.decode(SealedReports.bytes(l.getValue())))
                .containsExactly(
                        SealedReports.report("device-0", APP, CONFIG, 1),
                        SealedReports.report("device-1", APP, CONFIG, 1),
                        SealedReports.report("device-2", APP, CONFIG, 1));
        assertThat(letters)
                .extracting(DeadLetter::getSourceTopic, DeadLetter::getOffset)
                .containsExactly(
                        org.assertj.core.api.Assertions.tuple(SealedReports.TOPIC, 0L),
                        org.assertj.core.api.Assertions.tuple(SealedReports.TOPIC, 1L),
                        org.assertj.core.api.Assertions.tuple(SealedReports.TOPIC, 2L));
        assertThat(letters.get(0).getReason())
                .isEqualTo(
                        "app version app:1, config shuffled held 3 reports for PT10M30S, fewer"
                                + " than the 5 a batch is released with");

        // Afresh: the next report's wait starts when it arrives.
        send(harness, 1, 3);
        harness.setProcessingTime(20 * MINUTE);
        assertThat(harness.getSideOutput(ShufflerDeadLetters.TAG)).hasSize(3);
        harness.setProcessingTime(21 * MINUTE);
        assertThat(harness.getSideOutput(ShufflerDeadLetters.TAG)).hasSize(4);
        assertThat(harness.extractOutputValues()).isEmpty();
        harness.close();
    }

    /**
     * A re-sent (device, app version, sequence) is forwarded once, so it counts once in a batch.
     */
    @Test
    void countsAReSentReportOnce() throws Exception {
        var dedup =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(
                                new DeduplicateSealedReports(
                                        SealedReports.TOPIC, Duration.ofDays(90))),
                        new ShufflerKeys.Sender(),
                        Types.TUPLE(Types.STRING, Types.STRING));
        dedup.open();
        dedup.processElement(SealedReports.record("device-a", APP, CONFIG, 1, 0), 0);
        dedup.processElement(SealedReports.record("device-a", APP, CONFIG, 2, 1), 0);
        dedup.processElement(SealedReports.record("device-b", APP, CONFIG, 1, 2), 0);
        dedup.processElement(SealedReports.record("device-a", APP, CONFIG, 1, 3), 0);
        dedup.processElement(SealedReports.record("device-a", "app:2", CONFIG, 1, 4), 0);
        List<SealedRecord> forwarded = dedup.extractOutputValues();
        assertThat(forwarded)
                .extracting(r -> r.deviceId + "/" + r.appVersion + "#" + r.sequence)
                .containsExactly(
                        "device-a/app:1#1",
                        "device-a/app:1#2",
                        "device-b/app:1#1",
                        "device-a/app:2#1");
        dedup.close();

        var batching = harness(3, 100, Duration.ofDays(1));
        batching.setProcessingTime(0);
        for (SealedRecord record : forwarded) {
            batching.processElement(record, 0);
        }
        batching.setProcessingTime(MINUTE);
        List<ShuffledBatch> released = batches(batching.extractOutputValues());
        assertThat(released).hasSize(1);
        assertThat(released.get(0).getBatchSize()).isEqualTo(3);
        assertThat(payloads(released.get(0)))
                .containsExactly("sealed(a#1)", "sealed(a#2)", "sealed(b#1)");
        batching.close();
    }
}
