package dev.fieldprof.benchmarks.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fieldprof.benchmarks.plan.HBoundChoice.Measured;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class HBoundChoiceTest {

    @Test
    void picksLargestHBoundWhoseWorstVariantIsUnderTheLimit() {
        List<Measured> measured =
                List.of(
                        new Measured(500, 0.31),
                        new Measured(20, 0.012),
                        new Measured(100, 0.099),
                        new Measured(50, 0.04),
                        new Measured(250, 0.10));
        assertEquals(OptionalLong.of(100), HBoundChoice.largestUnder(measured, 0.10));
    }

    @Test
    void ignoresALargerHBoundThatPassesOnlyAfterASmallerOneFailed() {
        List<Measured> measured =
                List.of(
                        new Measured(20, 0.05),
                        new Measured(50, 0.12),
                        new Measured(100, 0.08),
                        new Measured(250, 0.30));
        assertEquals(OptionalLong.of(20), HBoundChoice.largestUnder(measured, 0.10));
    }

    @Test
    void choosesNothingWhenTheSmallestHBoundIsOverTheLimit() {
        List<Measured> measured = List.of(new Measured(20, 0.15), new Measured(50, 0.05));
        assertEquals(OptionalLong.empty(), HBoundChoice.largestUnder(measured, 0.10));
        assertEquals(OptionalLong.empty(), HBoundChoice.largestUnder(List.of(), 0.10));
    }

    @Test
    void treatsNegativeOverheadAsUnderTheLimitAndNaNAsOver() {
        assertEquals(
                OptionalLong.of(50),
                HBoundChoice.largestUnder(
                        List.of(new Measured(20, -0.03), new Measured(50, 0.0)), 0.10));
        assertEquals(
                OptionalLong.of(20),
                HBoundChoice.largestUnder(
                        List.of(new Measured(20, 0.01), new Measured(50, Double.NaN)), 0.10));
    }

    @Test
    void rejectsAnHBoundMeasuredTwice() {
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        HBoundChoice.largestUnder(
                                List.of(new Measured(20, 0.01), new Measured(20, 0.02)), 0.10));
    }
}
