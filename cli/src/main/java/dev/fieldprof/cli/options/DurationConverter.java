package dev.fieldprof.cli.options;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Reads durations as people write them: {@code 90s}, {@code 5m}, {@code 2h}, {@code 1d}, {@code
 * 1500ms} or ISO-8601 {@code PT1M}, and writes them the same way ({@link #format}).
 */
public class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    /** As {@link DurationConverter}, also taking zero ({@code 0s}) for "not at all". */
    public static final class OrZero extends DurationConverter {
        @Override
        public Duration convert(String value) {
            String text = value.trim().toLowerCase(Locale.ROOT);
            if (text.matches("0+(ms|s|m|h|d)?") || text.equals("pt0s")) {
                return Duration.ZERO;
            }
            return super.convert(value);
        }
    }

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
                case 'd' -> positive(Duration.ofDays(amount), value);
                default -> throw bad(value);
            };
        } catch (RuntimeException e) {
            if (e instanceof CommandLine.TypeConversionException) {
                throw e;
            }
            throw bad(value);
        }
    }

    /**
     * The duration in its largest whole unit: {@code 1d}, {@code 8h}, {@code 90s}, {@code 1500ms}.
     */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] units = {"d", "h", "m", "s"};
        for (int i = 0; i < sizes.length; i++) {
            if (millis != 0 && millis % sizes[i] == 0) {
                return millis / sizes[i] + units[i];
            }
        }
        return millis + "ms";
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
                "'" + value + "' is not a duration (examples: 90s, 5m, 2h, 1d, 1500ms, PT1M)");
    }
}
