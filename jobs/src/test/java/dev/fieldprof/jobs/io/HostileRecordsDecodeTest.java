package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.functions.DecodePrograms;
import dev.fieldprof.jobs.frequency.functions.DecodeReports;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.paths.DecodeEdgeModels;
import dev.fieldprof.jobs.paths.DecodePathReports;
import dev.fieldprof.jobs.paths.DecodeProgramBranches;
import dev.fieldprof.jobs.paths.PathDeadLetters;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.EdgeModel;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.PoisonRecords;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

/**
 * Every job function that decodes records from Kafka ends the short records that claim gigabytes as
 * UNDECODABLE dead letters naming the claim, and emits nothing. Before the bound each of these
 * threw OutOfMemoryError out of processElement, which fails the task; Flink then replays the record
 * from the last checkpoint and fails again, forever.
 */
class HostileRecordsDecodeTest {
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);

    private static final String STRING_CLAIM =
            "cannot decode 15 bytes: string claims 2000000000 bytes but 0 bytes are left";
    private static final String COUNTS_CLAIM =
            "FrequencyReport: cannot decode 42 bytes: array block claims 2000000000 items but 0"
                    + " bytes are left (every item takes at least one)";

    @Test
    void decodeReportsDeadLettersBothPoisonReports() throws Exception {
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        Schema oldest = RecordCodec.historyOf("FrequencyReport").get(0);
        List<String> letters =
                deadLetters(
                        new DecodeReports(),
                        DeadLetters.TAG,
                        PoisonRecords.frequencyReportClaimingTwoBillionCounts(codec.schema()),
                        PoisonRecords.frequencyReportClaimingTwoBillionCounts(oldest),
                        PoisonRecords.fifteenBytesClaimingTwoGigabyteString(codec.schema()));

        assertThat(letters)
                .containsExactly(
                        "0 UNDECODABLE " + COUNTS_CLAIM,
                        "1 UNDECODABLE " + COUNTS_CLAIM,
                        "2 UNDECODABLE FrequencyReport: " + STRING_CLAIM);
    }

    @Test
    void decodeProgramsDeadLettersAModelClaimingATwoGigabyteString() throws Exception {
        assertThat(
                        deadLetters(
                                new DecodePrograms(),
                                DeadLetters.TAG,
                                poisonString(ProgramModel.class)))
                .containsExactly("0 UNDECODABLE ProgramModel: " + STRING_CLAIM);
    }

    @Test
    void pathJobFunctionsDeadLetterRecordsClaimingATwoGigabyteString() throws Exception {
        assertThat(
                        deadLetters(
                                new DecodePathReports(),
                                PathDeadLetters.TAG,
                                poisonString(PathReport.class)))
                .containsExactly("0 UNDECODABLE PathReport: " + STRING_CLAIM);
        assertThat(
                        deadLetters(
                                new DecodeEdgeModels(),
                                PathDeadLetters.TAG,
                                poisonString(EdgeModel.class)))
                .containsExactly("0 UNDECODABLE EdgeModel: " + STRING_CLAIM);
        assertThat(
                        deadLetters(
                                new DecodeProgramBranches(),
                                PathDeadLetters.TAG,
                                poisonString(ProgramModel.class)))
                .containsExactly("0 UNDECODABLE ProgramModel: " + STRING_CLAIM);
    }

    @Test
    void aDeadLetterOfARecordLargerThanTheDeadLetterTopicAllowsKeepsItsStartAndFits()
            throws Exception {
        byte[] garbage = new byte[2 * 1024 * 1024];
        Arrays.fill(garbage, (byte) 7);
        try (OneInputStreamOperatorTestHarness<RawRecord, ProgramUpdate> harness =
                ProcessFunctionTestHarnesses.forProcessFunction(new DecodePrograms())) {
            harness.processElement(
                    new RawRecord("fieldprof.programs", 0, 9, 1000L, new byte[100_000], garbage),
                    1000L);
            EncodedRecord encoded = harness.getSideOutput(DeadLetters.TAG).poll().getValue();
            DeadLetter letter = LETTERS.decode(encoded.value);

            assertThat(letter.getValue().remaining())
                    .isEqualTo(DeadLetterRecords.MAX_KEPT_VALUE_BYTES);
            assertThat(letter.getKey().remaining()).isEqualTo(DeadLetterRecords.MAX_KEPT_KEY_BYTES);
            assertThat(encoded.key).hasSize(DeadLetterRecords.MAX_KEPT_KEY_BYTES);
            assertThat(letter.getReason())
                    .isEqualTo(
                            "ProgramModel: cannot decode 2097152 bytes: no single-object marker"
                                    + " (value cut to its first 524288 of 2097152 bytes)");
            assertThat(encoded.key.length + encoded.value.length)
                    .isLessThan(Topics.MAX_RESULT_BYTES);
        }
    }

    private static byte[] poisonString(
            Class<? extends org.apache.avro.specific.SpecificRecordBase> type) {
        return PoisonRecords.fifteenBytesClaimingTwoGigabyteString(RecordCodec.of(type).schema());
    }

    private static <O> List<String> deadLetters(
            ProcessFunction<RawRecord, O> function, OutputTag<EncodedRecord> tag, byte[]... values)
            throws Exception {
        try (OneInputStreamOperatorTestHarness<RawRecord, O> harness =
                ProcessFunctionTestHarnesses.forProcessFunction(function)) {
            for (int i = 0; i < values.length; i++) {
                harness.processElement(new RawRecord("topic", 0, i, 1000L, null, values[i]), 1000L);
            }
            assertThat(harness.extractOutputValues()).isEmpty();
            return harness.getSideOutput(tag).stream()
                    .map(r -> LETTERS.decode(r.getValue().value))
                    .map(l -> l.getOffset() + " " + l.getReasonCode() + " " + l.getReason())
                    .toList();
        }
    }
}
