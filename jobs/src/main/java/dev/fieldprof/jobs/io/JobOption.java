package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.flink.util.TimeUtils;

/**
 * One option of a job's {@code main()}, declared once: its name ({@code --name}), its type, its
 * default, what values it accepts and what it means. Parsing ({@link JobOptionValues}), the jobs'
 * {@code --help} and docs/jobs.md are all derived from the declarations, so that a new option is
 * one line and the help cannot drift from the parser. Immutable.
 *
 * <pre>{@code
 * static final JobOption<Duration> WINDOW =
 *         JobOption.duration("window", "1 min", "tumbling window of the estimates")
 *                 .check(JobOption::positive, "must be > 0");
 * }</pre>
 *
 * @param <T> the type of the parsed value
 */
public final class JobOption<T> {
    private final String name;
    private final String defaultText;
    private final String type;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;
    private final List<Check<T>> checks;
    private final String description;

    private record Check<T>(Predicate<T> ok, String requirement) {}

    private JobOption(
            String name,
            String defaultText,
            String type,
            Function<String, T> parser,
            Function<T, String> formatter,
            List<Check<T>> checks,
            String description) {
        this.name = Objects.requireNonNull(name, "name");
        this.defaultText = defaultText;
        this.type = type;
        this.parser = parser;
        this.formatter = formatter;
        this.checks = List.copyOf(checks);
        this.description = Objects.requireNonNull(description, "description");
    }

    /** Text taken as it is; {@code defaultText} null makes the option required. */
    public static JobOption<String> string(String name, String defaultText, String description) {
        return new JobOption<>(
                name, defaultText, "TEXT", text -> text, text -> text, List.of(), description);
    }

    /** A duration such as {@code 30 s}, {@code 1min} or {@code 500ms}. */
    public static JobOption<Duration> duration(
            String name, String defaultText, String description) {
        return new JobOption<>(
                name,
                defaultText,
                "DURATION",
                text -> parsed(name, text, "a duration", TimeUtils::parseDuration),
                TimeUtils::formatWithHighestUnit,
                List.of(),
                description);
    }

    /** A whole number. */
    public static JobOption<Integer> integer(String name, String defaultText, String description) {
        return new JobOption<>(
                name,
                defaultText,
                "N",
                text -> parsed(name, text, "an integer", t -> Integer.parseInt(t.strip())),
                value -> Integer.toString(value),
                List.of(),
                description);
    }

    /** A number such as {@code 0.25}. */
    public static JobOption<Double> number(String name, String defaultText, String description) {
        return new JobOption<>(
                name,
                defaultText,
                "X",
                text -> parsed(name, text, "a number", t -> Double.parseDouble(t.strip())),
                value -> Double.toString(value),
                List.of(),
                description);
    }

    /**
     * An option of another type: {@code parser} reads the text (throwing {@link
     * IllegalArgumentException} naming the option when it cannot), {@code formatter} writes a value
     * back.
     */
    public static <V> JobOption<V> of(
            String name,
            String defaultText,
            String type,
            Function<String, V> parser,
            Function<V, String> formatter,
            String description) {
        return new JobOption<>(name, defaultText, type, parser, formatter, List.of(), description);
    }

    /** One of {@code choices}, as written. */
    public static JobOption<String> choice(
            String name, String defaultText, List<String> choices, String description) {
        return string(name, defaultText, description)
                .typed(String.join("|", choices))
                .check(
                        choices::contains,
                        choices.size() == 2
                                ? "must be " + choices.get(0) + " or " + choices.get(1)
                                : "must be one of " + String.join(", ", choices));
    }

    /** This option, accepting only values for which {@code ok} holds ("--name " + requirement). */
    public JobOption<T> check(Predicate<T> ok, String requirement) {
        List<Check<T>> more = new ArrayList<>(checks);
        more.add(new Check<>(ok, requirement));
        return new JobOption<>(name, defaultText, type, parser, formatter, more, description);
    }

    /** The same option with another default (the same option of another job). */
    public JobOption<T> withDefault(String otherDefault) {
        return new JobOption<>(name, otherDefault, type, parser, formatter, checks, description);
    }

    private JobOption<T> typed(String otherType) {
        return new JobOption<>(
                name, defaultText, otherType, parser, formatter, checks, description);
    }

    /** The option's name, without the dashes. */
    public String key() {
        return name;
    }

    /** The default as it would be written, or null when the option is required. */
    public String defaultText() {
        return defaultText;
    }

    public boolean required() {
        return defaultText == null;
    }

    public String description() {
        return description;
    }

    /** What the option takes, for help: {@code DURATION}, {@code N}, {@code a|b}. */
    public String type() {
        return type;
    }

    /**
     * The value {@code text} stands for.
     *
     * @throws IllegalArgumentException naming the option when the text is not such a value or is
     *     out of range
     */
    public T parse(String text) {
        T value = parser.apply(text);
        for (Check<T> check : checks) {
            if (!check.ok().test(value)) {
                throw new IllegalArgumentException("--" + name + " " + check.requirement());
            }
        }
        return value;
    }

    /** The value as text that {@link #parse} reads back. */
    public String format(T value) {
        return formatter.apply(value);
    }

    /** For {@link #check}: a duration above zero. */
    public static boolean positive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }

    /** For {@link #check}: a duration of zero or more. */
    public static boolean notNegative(Duration d) {
        return !d.isNegative();
    }

    private static <V> V parsed(String name, String text, String what, Function<String, V> parse) {
        try {
            return parse.apply(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "--" + name + ": not " + what + ": '" + text + "'", e);
        }
    }

    @Override
    public String toString() {
        return "--" + name;
    }
}
