package dev.fieldprof.jobs.frequency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.functions.DeduplicateReports;
import dev.fieldprof.jobs.frequency.functions.Keys;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** Deduplication on Flink's operator harness, with the TTL of unnumbered reports elapsing. */
class DeduplicateReportsTest {
    private static final Duration TTL = Duration.ofHours(24);

    private static ReportRecord report(String id, String device, long sequence) {
        ReportRecord report =
                new ReportRecord(
                        id,
                        device,
                        "app:1",
                        "default",
                        4,
                        new int[] {1, 2, 1},
                        new RawRecord("reports", 0, 0, 0, null, new byte[] {1}));
        report.sequence = sequence;
        return report;
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ReportRecord, ReportRecord>
            harness() throws Exception {
        var harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new DeduplicateReports(TTL)),
                        new Keys.Sender(),
                        Types.STRING);
        harness.open();
        return harness;
    }

    /**
     * After an outage longer than the TTL, a backlog of re-sent numbered reports still counts once;
     * unnumbered ones (v1 devices) are only remembered for the TTL.
     */
    @Test
    void countsNumberedReportsOnceAfterAnOutageLongerThanTheTtl() throws Exception {
        var harness = harness();
        harness.setStateTtlProcessingTime(0);
        harness.processElement(report("a1", "device-a", 1), 0);
        harness.processElement(report("a2", "device-a", 2), 0);
        harness.processElement(report("old", "device-v1", 0), 0);
        harness.setStateTtlProcessingTime(TTL.toMillis() + Duration.ofHours(6).toMillis());
        // The backlog after the outage: re-sends of everything, and one new report.
        harness.processElement(report("a1", "device-a", 1), 0);
        harness.processElement(report("a2", "device-a", 2), 0);
        harness.processElement(report("a3", "device-a", 3), 0);
        harness.processElement(report("old", "device-v1", 0), 0);

        assertThat(harness.extractOutputValues())
                .extracting(r -> r.reportId)
                .containsExactly("a1", "a2", "old", "a3", "old");
        harness.close();
    }

    /**
     * The sequence window of a device silent for longer than the device TTL is gone: its report 1
     * re-sent then counts again, while a device that kept sending keeps its window.
     */
    @Test
    void forgetsTheWindowOfADeviceSilentLongerThanTheDeviceTtl() throws Exception {
        Duration deviceTtl = DeduplicateReports.DEFAULT_DEVICE_TTL;
        long day = Duration.ofDays(1).toMillis();
        var harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new DeduplicateReports(TTL)),
                        new Keys.Sender(),
                        Types.STRING);
        harness.open();
        harness.setStateTtlProcessingTime(0);
        harness.processElement(report("a1", "device-a", 1), 0);
        harness.processElement(report("b1", "device-b", 1), 0);
        // Device b sends a new report every 30 days; device a is silent.
        long now = 0;
        for (int n = 2; now + 30 * day <= deviceTtl.toMillis() + day; n++) {
            now += 30 * day;
            harness.setStateTtlProcessingTime(now);
            harness.processElement(report("b" + n, "device-b", n), 0);
        }
        harness.setStateTtlProcessingTime(deviceTtl.toMillis() - 1);
        harness.processElement(report("a1", "device-a", 1), 0); // still known: a duplicate
        harness.setStateTtlProcessingTime(deviceTtl.toMillis() + day);
        harness.processElement(report("a1", "device-a", 1), 0); // forgotten: counted again
        harness.processElement(report("b1", "device-b", 1), 0); // b's window lives on

        assertThat(harness.extractOutputValues())
                .extracting(r -> r.reportId)
                .containsExactly("a1", "b1", "b2", "b3", "b4", "a1");
        harness.close();
    }

    @Test
    void deadLettersANumberedReportTooFarBehindToCheck() throws Exception {
        var harness = harness();
        harness.processElement(report("a1", "device-a", 1), 0);
        harness.processElement(report("a100", "device-a", 100), 0);
        harness.processElement(report("a1", "device-a", 1), 0);
        assertThat(harness.extractOutputValues())
                .extracting(r -> r.reportId)
                .containsExactly("a1", "a100");
        List<DeadLetter> letters =
                harness.getSideOutput(DeadLetters.TAG).stream()
                        .map(r -> RecordCodec.of(DeadLetter.class).decode(r.getValue().value))
                        .toList();
        assertThat(letters)
                .singleElement()
                .satisfies(
                        l -> {
                            assertThat(l.getReasonCode())
                                    .isEqualTo(DeadLetterReason.SEQUENCE_TOO_OLD);
                            assertThat(l.getReason())
                                    .isEqualTo(
                                            "report 1 of device device-a is more than 64 behind its"
                                                    + " latest, 100: whether it was counted is no"
                                                    + " longer known");
                        });
        harness.close();
    }
}
