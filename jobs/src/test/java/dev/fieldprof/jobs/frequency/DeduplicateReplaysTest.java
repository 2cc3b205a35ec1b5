package dev.fieldprof.jobs.frequency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.functions.DeduplicateReplays;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** Replayed reports on Flink's operator harness: once per replay key, until the TTL passes. */
class DeduplicateReplaysTest {
    private static final Duration TTL = Duration.ofDays(2);

    private static RawRecord replayed(long offset, String key) {
        return new RawRecord(
                "replay",
                0,
                offset,
                1_000,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                new byte[] {1});
    }

    @Test
    void countsEachReplayKeyOnceAndDeadLettersARecordWithoutOne() throws Exception {
        var harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new DeduplicateReplays(TTL)),
                        DeduplicateReplays.KEY,
                        Types.STRING);
        harness.open();
        harness.setStateTtlProcessingTime(0);
        harness.processElement(replayed(0, "reports/0/7"), 0);
        harness.processElement(replayed(1, "reports/0/7"), 0);
        harness.processElement(replayed(2, "reports/1/7"), 0);
        harness.processElement(replayed(3, "not a key"), 0);
        harness.processElement(replayed(4, null), 0);
        harness.setStateTtlProcessingTime(TTL.toMillis() + 1);
        harness.processElement(replayed(5, "reports/0/7"), 0);

        assertThat(harness.extractOutputValues())
                .extracting(r -> r.offset)
                .containsExactly(0L, 2L, 5L);
        List<DeadLetter> letters =
                harness.getSideOutput(DeadLetters.TAG).stream()
                        .map(r -> RecordCodec.of(DeadLetter.class).decode(r.getValue().value))
                        .toList();
        assertThat(letters)
                .extracting(DeadLetter::getOffset, DeadLetter::getReasonCode)
                .containsExactly(
                        org.assertj.core.api.Assertions.tuple(3L, DeadLetterReason.INVALID),
                        org.assertj.core.api.Assertions.tuple(4L, DeadLetterReason.INVALID));
        harness.close();
    }
}
