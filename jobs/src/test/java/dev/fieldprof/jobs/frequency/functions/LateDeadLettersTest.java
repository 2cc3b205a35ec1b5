package dev.fieldprof.jobs.frequency.functions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.ReportBundle;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.junit.jupiter.api.Test;

/**
 * What the frequency job drops for lateness is a dead letter with its own reason and enough to find
 * what it stands for, never only a log line or a Flink metric.
 */
class LateDeadLettersTest {
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);

    @Test
    void aLateReportIsALateLetterThatSaysWhereTheReportIsInKafka() {
        RawRecord raw =
                new RawRecord(
                        "fieldprof.reports.frequency",
                        3,
                        1_234,
                        59_000,
                        "device-7".getBytes(StandardCharsets.UTF_8),
                        null);
        ReportRecord report =
                new ReportRecord("r-1", "device-7", "app:1", "default", 4, new int[3], raw);

        DeadLetter letter = LETTERS.decode(new LateReportToDeadLetter().map(report).value);

        assertThat(letter.getReasonCode()).isEqualTo(DeadLetterReason.LATE);
        assertThat(letter.getSourceTopic()).isEqualTo("fieldprof.reports.frequency");
        assertThat(letter.getPartition()).isEqualTo(3);
        assertThat(letter.getOffset()).isEqualTo(1_234L);
        assertThat(letter.getRecordTimestampMillis()).isEqualTo(Instant.ofEpochMilli(59_000));
        assertThat(letter.getReason())
                .isEqualTo(
                        "late: report r-1 of device device-7 has record time 59000, in a window"
                                + " whose allowed lateness had passed; the report is at"
                                + " fieldprof.reports.frequency-3 offset 1234");
    }

    @Test
    void aLateShardSumIsAWindowDroppedLetterThatCountsItsReports() {
        WindowSum sum =
                new WindowSum(
                        "app:1",
                        "default",
                        0xabcL,
                        2,
                        60_000,
                        90_000,
                        new PartialSum(5, new long[] {1, 2, 3}));

        DeadLetter letter =
                LETTERS.decode(
                        new LateShardSumToDeadLetter("fieldprof.reports.frequency").map(sum).value);

        assertThat(letter.getReasonCode()).isEqualTo(DeadLetterReason.WINDOW_DROPPED);
        assertThat(letter.getSourceTopic()).isEqualTo("fieldprof.reports.frequency");
        assertThat(letter.getPartition()).isEqualTo(-1);
        assertThat(letter.getKey().array()).isEqualTo("app:1".getBytes(StandardCharsets.UTF_8));
        assertThat(letter.getReason())
                .isEqualTo(
                        "the sum of 5 reports of app:1 (config default, model generation abc,"
                                + " shard 2) for window [1970-01-01T00:01:00Z,"
                                + " 1970-01-01T00:01:30Z) arrived after that window was"
                                + " estimated");
    }

    @Test
    void aLateBundleIsAWindowDroppedLetterPerConfigThatCountsItsReports() {
        ReportBundle bundle = new ReportBundle("app:1", 1, 60_000);
        for (String config : new String[] {"default", "default", "strict"}) {
            ReportRecord report =
                    new ReportRecord(
                            "r-" + config, "d", "app:1", config, 1, new int[] {1, 0}, null);
            report.generation = 0xabcL;
            bundle.sums.add(report);
        }
        List<DeadLetter> letters = new ArrayList<>();
        new LateBundleToDeadLetters("fieldprof.reports.frequency", 30_000)
                .flatMap(
                        bundle,
                        new ListCollector<>(new ArrayList<>()) {
                            @Override
                            public void collect(EncodedRecord record) {
                                letters.add(LETTERS.decode(record.value));
                            }
                        });

        assertThat(letters)
                .extracting(DeadLetter::getReasonCode)
                .containsOnly(DeadLetterReason.WINDOW_DROPPED);
        assertThat(letters)
                .extracting(DeadLetter::getReason)
                .containsExactly(
                        "the sum of 2 reports of app:1 (config default, model generation abc,"
                                + " shard 1) for window [1970-01-01T00:01:00Z,"
                                + " 1970-01-01T00:01:30Z) reached its shard's window sum after"
                                + " the window's allowed lateness",
                        "the sum of 1 reports of app:1 (config strict, model generation abc,"
                                + " shard 1) for window [1970-01-01T00:01:00Z,"
                                + " 1970-01-01T00:01:30Z) reached its shard's window sum after"
                                + " the window's allowed lateness");
    }
}
