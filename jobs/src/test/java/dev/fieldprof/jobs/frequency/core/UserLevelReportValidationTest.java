package dev.fieldprof.jobs.frequency.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Validation of user-level reports: the subset is the report, and it must be one ω-subset. */
class UserLevelReportValidationTest {
    private static final int METHODS = 20;
    private static final PrivacyParameters USER_LEVEL =
            new PrivacyParameters(PrivacyMode.USER_LEVEL, Math.log(3), 1, 1);
    private static final ProgramShape SHAPE =
            new ProgramShape(
                    "demo:1",
                    METHODS,
                    Map.of("user", USER_LEVEL, "et", new PrivacyParameters(Math.log(9), 1, 4)));

    private static ReportRecord report(String config, int k, int[] counts, int[] subset) {
        ReportRecord report = new ReportRecord("r", "d", "demo:1", config, k, counts, null);
        report.subset = subset;
        return report;
    }

    @Test
    void acceptsAnOmegaSubsetAndSumsItsIndicators() {
        assertThat(SHAPE.oracle("user").subsetSize()).isEqualTo(5);
        ReportRecord valid = report("user", 1, new int[0], new int[] {0, 3, 7, 8, 19});
        assertThat(ReportValidation.check(valid, SHAPE)).isNull();
        int[] summand = ReportValidation.summand(valid, METHODS);
        assertThat(summand).hasSize(METHODS);
        assertThat(summand[0] + summand[3] + summand[7] + summand[8] + summand[19]).isEqualTo(5);
        assertThat(java.util.Arrays.stream(summand).sum()).isEqualTo(5);
    }

    @Test
    void rejectsMalformedUserLevelReportsWithTheirReasons() {
        assertThat(ReportValidation.check(report("user", 1, new int[0], new int[] {1, 2}), SHAPE))
                .extracting(ReportValidation.Failure::reason)
                .isEqualTo(DeadLetterReason.WRONG_VECTOR_LENGTH);
        assertThat(
                        ReportValidation.check(
                                        report("user", 1, new int[0], new int[] {1, 2, 3, 4, 20}),
                                        SHAPE)
                                .message())
                .isEqualTo("subset[4] = 20 is outside [0, |V| = 20)");
        assertThat(
                        ReportValidation.check(
                                        report("user", 1, new int[0], new int[] {1, 2, 2, 4, 5}),
                                        SHAPE)
                                .reason())
                .isEqualTo(DeadLetterReason.INVALID);
        assertThat(
                        ReportValidation.check(
                                        report(
                                                "user",
                                                1,
                                                new int[METHODS],
                                                new int[] {1, 2, 3, 4, 5}),
                                        SHAPE)
                                .reason())
                .isEqualTo(DeadLetterReason.WRONG_VECTOR_LENGTH);
        assertThat(
                        ReportValidation.check(
                                        report("user", 2, new int[0], new int[] {1, 2, 3, 4, 5}),
                                        SHAPE)
                                .reason())
                .isEqualTo(DeadLetterReason.WRONG_TRACE_LENGTH);
        assertThat(
                        ReportValidation.check(
                                        report("et", 4, new int[METHODS], new int[] {1}), SHAPE)
                                .reason())
                .isEqualTo(DeadLetterReason.INVALID);
    }

    @Test
    void decodesTheSubsetOnTheFastPathAndTheAvroPath() {
        FrequencyReport report =
                FrequencyReport.newBuilder()
                        .setReportId("r")
                        .setDeviceId("d")
                        .setAppVersion("demo:1")
                        .setConfigId("user")
                        .setK(1)
                        .setCreatedAtMillis(Instant.ofEpochMilli(5))
                        .setCounts(List.of())
                        .setSequence(3)
                        .setSubset(List.of(2, 4, 6, 8, 10))
                        .build();
        byte[] bytes = RecordCodec.of(FrequencyReport.class).encode(report);
        RawRecord raw = new RawRecord("t", 0, 0, 0L, null, bytes);
        ReportRecord fast = FastReportDecoder.decode(raw);
        assertThat(fast.subset).containsExactly(2, 4, 6, 8, 10);
        assertThat(fast.counts).isEmpty();
        assertThat(fast.sequence).isEqualTo(3);
    }

    @Test
    void shapeKeepsTheModeThroughItsBytesAndEpsilonTGenerationsDoNotChange() {
        ProgramShape read = ProgramShape.fromBytes(SHAPE.toBytes());
        assertThat(read.config("user")).isEqualTo(USER_LEVEL);
        assertThat(read.generation()).isEqualTo(SHAPE.generation());
        ProgramShape epsilonT =
                new ProgramShape(
                        "demo:1",
                        METHODS,
                        Map.of("user", new PrivacyParameters(Math.log(3), 1, 1)));
        assertThat(epsilonT.generation())
                .isNotEqualTo(
                        new ProgramShape("demo:1", METHODS, Map.of("user", USER_LEVEL))
                                .generation());
        assertThat(SHAPE.describe()).contains("user-level");
    }
}
