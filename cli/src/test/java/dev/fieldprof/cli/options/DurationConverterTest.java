package dev.fieldprof.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationConverterTest {
    private final DurationConverter converter = new DurationConverter();

    @Test
    void readsTheUnitsPeopleWrite() {
        assertThat(converter.convert("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(converter.convert("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(converter.convert("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(converter.convert("1500ms")).isEqualTo(Duration.ofMillis(1500));
        assertThat(converter.convert("PT1M")).isEqualTo(Duration.ofMinutes(1));
        assertThat(converter.convert("1d")).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void theOrZeroKindAlsoTakesZeroForNotAtAll() {
        DurationConverter orZero = new DurationConverter.OrZero();
        assertThat(orZero.convert("0s")).isEqualTo(Duration.ZERO);
        assertThat(orZero.convert("0")).isEqualTo(Duration.ZERO);
        assertThat(orZero.convert("PT0S")).isEqualTo(Duration.ZERO);
        assertThat(orZero.convert("15s")).isEqualTo(Duration.ofSeconds(15));
        assertThatThrownBy(() -> orZero.convert("-1s"))
                .isInstanceOf(CommandLine.TypeConversionException.class);
    }

    @Test
    void writesADurationInItsLargestWholeUnit() {
        assertThat(DurationConverter.format(Duration.ofDays(1))).isEqualTo("1d");
        assertThat(DurationConverter.format(Duration.ofHours(36))).isEqualTo("36h");
        assertThat(DurationConverter.format(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(DurationConverter.format(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(DurationConverter.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(DurationConverter.format(Duration.ZERO)).isEqualTo("0ms");
    }

    @Test
    void rejectsZeroAndNonsenseNamingTheValue() {
        assertThatThrownBy(() -> converter.convert("0s"))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessage("'0s' is not a positive duration");
        assertThatThrownBy(() -> converter.convert("soon"))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessage("'soon' is not a duration (examples: 90s, 5m, 2h, 1d, 1500ms, PT1M)");
    }
}
