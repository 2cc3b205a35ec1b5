package dev.fieldprof.jobs.frequency.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WatermarkHoldTest {

    @Test
    void allowsTheInputWatermarkWhenNothingWaits() {
        WatermarkHold hold = new WatermarkHold();
        assertThat(hold.allowed(42)).isEqualTo(42);
        assertThat(hold.size()).isZero();
    }

    @Test
    void staysJustBelowTheEarliestWaitingReportCountingDuplicates() {
        WatermarkHold hold = new WatermarkHold();
        hold.add(5_000);
        hold.add(3_000);
        hold.add(3_000);
        assertThat(hold.allowed(10_000)).isEqualTo(2_999);
        assertThat(hold.allowed(1_000)).isEqualTo(1_000);
        hold.remove(3_000);
        assertThat(hold.allowed(10_000)).isEqualTo(2_999);
        hold.remove(3_000);
        assertThat(hold.allowed(10_000)).isEqualTo(4_999);
        assertThat(hold.size()).isEqualTo(1);
        hold.remove(5_000);
        hold.remove(5_000); // removing what is not there changes nothing
        assertThat(hold.allowed(10_000)).isEqualTo(10_000);
    }
}
