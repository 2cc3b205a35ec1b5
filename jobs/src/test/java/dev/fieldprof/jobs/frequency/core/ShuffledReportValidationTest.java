package dev.fieldprof.jobs.frequency.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.DeadLetterReason;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Validation in the shuffled mode: a shuffled configuration's reports count only from batches of at
 * least its minimum size, and a batch only for a shuffled configuration.
 */
class ShuffledReportValidationTest {
    private static final PrivacyParameters PARAMETERS = new PrivacyParameters(Math.log(9), 1, 2);
    private static final ProgramShape SHAPE =
            new ProgramShape(
                    "shop:2.1",
                    3,
                    Map.of("shuffled", PARAMETERS, "local", PARAMETERS),
                    Map.of("shuffled", new ShuffleTerms(100, 1e-6)));

    private static ReportRecord report(String config, String batchId, int batchSize) {
        ReportRecord report =
                new ReportRecord("r-1", "", "shop:2.1", config, 2, new int[] {1, 0, 2}, null);
        report.batchId = batchId;
        report.batchSize = batchSize;
        return report;
    }

    @Test
    void aBatchOfAtLeastTheMinimumCounts() {
        assertThat(ReportValidation.check(report("shuffled", "b-1", 100), SHAPE)).isNull();
        assertThat(ReportValidation.check(report("local", null, 0), SHAPE)).isNull();
    }

    @Test
    void aBatchBelowTheMinimumIsTooSmall() {
        assertThat(ReportValidation.check(report("shuffled", "b-1", 99), SHAPE))
                .isEqualTo(
                        new ReportValidation.Failure(
                                DeadLetterReason.BATCH_TOO_SMALL,
                                "shuffled batch b-1 holds 99 reports, below the minimum batch size"
                                        + " 100 of config 'shuffled' of shop:2.1"));
    }

    @Test
    void aBatchForALocalOnlyConfigurationIsTooSmall() {
        assertThat(ReportValidation.check(report("local", "b-2", 5000), SHAPE))
                .isEqualTo(
                        new ReportValidation.Failure(
                                DeadLetterReason.BATCH_TOO_SMALL,
                                "shuffled batch b-2 of 5000 reports is for config 'local' of"
                                        + " shop:2.1, which is not shuffled (local-only): it has"
                                        + " no minimum batch size and states no central"
                                        + " guarantee"));
    }

    @Test
    void aShuffledConfigurationsReportStraightFromTheReportsTopicIsInvalid() {
        assertThat(ReportValidation.check(report("shuffled", null, 0), SHAPE))
                .isEqualTo(
                        new ReportValidation.Failure(
                                DeadLetterReason.INVALID,
                                "config 'shuffled' of shop:2.1 is shuffled (batches of at least"
                                        + " 100 reports): its reports count only from the"
                                        + " shuffler's batches, and this one came straight to the"
                                        + " reports topic, bypassing the shuffler"));
    }

    @Test
    void theShuffleTermsSurviveTheShapesBytesAndChangeItsGeneration() throws Exception {
        ProgramShape read = ProgramShape.fromBytes(SHAPE.toBytes());
        assertThat(read.shuffleTerms("shuffled")).isEqualTo(new ShuffleTerms(100, 1e-6));
        assertThat(read.shuffleTerms("local")).isNull();
        assertThat(read.generation()).isEqualTo(SHAPE.generation());

        ProgramShape localOnly =
                new ProgramShape(
                        "shop:2.1", 3, Map.of("shuffled", PARAMETERS, "local", PARAMETERS));
        assertThat(localOnly.generation()).isNotEqualTo(SHAPE.generation());
        ProgramShape otherMinimum =
                new ProgramShape(
                        "shop:2.1",
                        3,
                        Map.of("shuffled", PARAMETERS, "local", PARAMETERS),
                        Map.of("shuffled", new ShuffleTerms(1000, 1e-6)));
        assertThat(otherMinimum.generation()).isNotEqualTo(SHAPE.generation());

        // A local-only shape is written as before the shuffled mode: it reads back the same.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            localOnly.write(out);
        }
        assertThat(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())).readInt())
                .isEqualTo(3);
        ProgramShape again =
                ProgramShape.read(
                        "shop:2.1",
                        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(again.generation()).isEqualTo(localOnly.generation());
        assertThat(again.shuffleTerms("shuffled")).isNull();
    }
}
