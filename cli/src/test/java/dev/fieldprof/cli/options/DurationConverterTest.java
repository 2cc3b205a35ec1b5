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
    }

    @Test
    void rejectsZeroAndNonsenseNamingTheValue() {
        assertThatThrownBy(() -> converter.convert("0s"))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessage("'0s' is not a positive duration");
        assertThatThrownBy(() -> converter.convert("soon"))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessage("'soon' is not a duration (examples: 90s, 5m, 2h, 1500ms, PT1M)");
    }
}
