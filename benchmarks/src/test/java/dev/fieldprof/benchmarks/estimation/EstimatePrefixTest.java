package dev.fieldprof.benchmarks.estimation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.SolveStats;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class EstimatePrefixTest {
    private static final RecordCodec<EstimateWindow> CODEC = RecordCodec.of(EstimateWindow.class);

    private static byte[] estimate(boolean cumulative, long reports, long endMillis) {
        return CODEC.encode(
                EstimateWindow.newBuilder()
                        .setAppVersion("app:1.0")
                        .setConfigId("user-level")
                        .setWindowStartMillis(Instant.ofEpochMilli(endMillis - 60_000))
                        .setWindowEndMillis(Instant.ofEpochMilli(endMillis))
                        .setCumulative(cumulative)
                        .setReports(reports)
                        .setK(1)
                        .setEpsilon(2.0)
                        .setT(1)
                        .setNormalized(List.of(0.25, 0.75))
                        .setStandardError(0.1)
                        .setConsistent(List.of(0.25, 0.75))
                        .setHotThreshold(0.5)
                        .setHotMethods(List.of(1))
                        .setTop(List.of())
                        .setSolve(
                                SolveStats.newBuilder()
                                        .setMillis(3)
                                        .setKktResidual(0)
                                        .setRounds(1)
                                        .setMaxViolation(0)
                                        .build())
                        .setEmittedAtMillis(Instant.ofEpochMilli(endMillis + 5))
                        .build());
    }

    @Test
    void readsTheFieldsAheadOfTheArraysAsAvroWroteThem() {
        long end = 1_764_000_000_000L;
        assertThat(EstimatePrefix.of(estimate(false, 20_000, end)))
                .isEqualTo(
                        new EstimatePrefix(
                                "app:1.0", "user-level", end - 60_000, end, false, 20_000));
        assertThat(EstimatePrefix.of(estimate(true, 1, end)).cumulative()).isTrue();
    }

    @Test
    void refusesOtherBytesAndBytesEndingInsideThePrefix() {
        byte[] bytes = estimate(false, 5, 120_000);
        assertThatThrownBy(() -> EstimatePrefix.of(Arrays.copyOf(bytes, 20)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EstimateWindow");
        byte[] other = bytes.clone();
        other[5] ^= 1;
        assertThatThrownBy(() -> EstimatePrefix.of(other))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not an EstimateWindow of the current schema");
    }
}
