package dev.fieldprof.cli.options;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Reads durations as people write them: {@code 90s}, {@code 5m}, {@code 2h}, {@code 1500ms} or
 * ISO-8601 {@code PT1M}.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (text.startsWith("pt") || text.startsWith("p")) {
                return positive(Duration.parse(value.trim().toUpperCase(Locale.ROOT)), value);
            }
            if (text.endsWith("ms")) {
                return positive(
                        Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2))),
                        value);
            }
            long amount = Long.parseLong(text.substring(0, text.length() - 1));
            return switch (text.charAt(text.length() - 1)) {
                case 's' -> positive(Duration.ofSeconds(amount), value);
                case 'm' -> positive(Duration.ofMinutes(amount), value);
                case 'h' -> positive(Duration.ofHours(amount), value);
                default -> throw bad(value);
            };
        } catch (RuntimeException e) {
            if (e instanceof CommandLine.TypeConversionException) {
                throw e;
            }
            throw bad(value);
        }
    }

    private static Duration positive(Duration duration, String value) {
        if (duration.isNegative() || duration.isZero()) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a positive duration");
        }
        return duration;
    }

    private static CommandLine.TypeConversionException bad(String value) {
        return new CommandLine.TypeConversionException(
                "'" + value + "' is not a duration (examples: 90s, 5m, 2h, 1500ms, PT1M)");
    }
}
