package dev.fieldprof.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.SolveStats;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which cumulative estimate of an app version {@code diff --estimates} and {@code plan} read. */
class EstimateInputsNewestTest {

    private static EstimateWindow cumulative(long end, int revision, long reports) {
        EstimateWindow window =
                EstimateWindow.newBuilder()
                        .setAppVersion("app:1")
                        .setConfigId("default")
                        .setWindowStartMillis(Instant.ofEpochMilli(0))
                        .setWindowEndMillis(Instant.ofEpochMilli(end))
                        .setCumulative(true)
                        .setReports(reports)
                        .setK(10)
                        .setEpsilon(1.0)
                        .setT(1)
                        .setNormalized(List.of(1.0))
                        .setStandardError(0.1)
                        .setConsistent(List.of(1.0))
                        .setHotThreshold(0.25)
                        .setHotMethods(List.of(0))
                        .setTop(List.of())
                        .setSolve(new SolveStats(1.0, 0.0, 1, 0.0))
                        .setEmittedAtMillis(Instant.ofEpochMilli(end))
                        .build();
        window.setRevision(revision);
        return window;
    }

    @Test
    void aLaterEndOrAHigherRevisionOfTheSameEndIsNewer() {
        EstimateWindow first = cumulative(60_000, 1, 10);
        EstimateWindow revised = cumulative(60_000, 2, 11);
        EstimateWindow next = cumulative(120_000, 3, 15);

        assertThat(EstimateInputs.newer(revised, first)).isTrue();
        assertThat(EstimateInputs.newer(first, revised))
                .as("an older revision read after a newer one (another partition)")
                .isFalse();
        assertThat(EstimateInputs.newer(next, revised)).isTrue();
        assertThat(EstimateInputs.newer(revised, next)).isFalse();
    }
}
