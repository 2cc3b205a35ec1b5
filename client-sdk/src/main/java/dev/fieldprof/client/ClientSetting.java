package dev.fieldprof.client;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * One setting of {@link ClientConfig}, declared once: its key in {@code client.properties} (and
 * after {@code fieldprof.} as a system property), what text it takes, its default, what values it
 * accepts and what it means. Reading properties, validating a built configuration and
 * docs/client-config.md are all derived from the declarations in {@link ClientSettings}, as Flink's
 * {@code ConfigOption}s are. Immutable.
 *
 * <p>Every message names the key and the bad value on one line: {@code <key> must be <what>, got
 * '<text>'} for text that is not such a value, {@code <key> <requirement>, got <value>} for a value
 * a check refuses, {@code <key> is required: <what>} for a missing one.
 *
 * @param <T> the type of the value; null stands for "unset" (manual epochs, no checkpoints, the
 *     default derived from another setting)
 */
final class ClientSetting<T> {
    private final String key;
    private final String type;
    private final String expected;
    private final Function<String, T> parser;
    private final Map<String, T> words;
    private final UnaryOperator<T> normalizer;
    private final T defaultValue;
    private final String defaultText;
    private final String required;
    private final List<Check<T>> checks;
    private final String description;

    private record Check<T>(Predicate<T> ok, String requirement) {}

    private ClientSetting(
            String key,
            String type,
            String expected,
            Function<String, T> parser,
            Map<String, T> words,
            UnaryOperator<T> normalizer,
            T defaultValue,
            String defaultText,
            String required,
            List<Check<T>> checks,
            String description) {
        this.key = Objects.requireNonNull(key, "key");
        this.type = type;
        this.expected = expected;
        this.parser = parser;
        this.words = words;
        this.normalizer = normalizer;
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.required = required;
        this.checks = checks;
        this.description = Objects.requireNonNull(description, "description");
    }

    private static <T> ClientSetting<T> of(
            String key,
            String type,
            String expected,
            Function<String, T> parser,
            T defaultValue,
            String description) {
        return new ClientSetting<>(
                key,
                type,
                expected,
                parser,
                Map.of(),
                UnaryOperator.identity(),
                defaultValue,
                null,
                null,
                List.of(),
                description);
    }

    /**
     * Text, trimmed; blank text is unset (null).
     *
     * @param defaultValue the default, or null for none
     */
    static ClientSetting<String> text(String key, String defaultValue, String description) {
        return new ClientSetting<>(
                key,
                "text",
                "text",
                text -> text,
                Map.of(),
                ClientSetting::trimmedOrNull,
                defaultValue,
                null,
                null,
                List.of(),
                description);
    }

    /** Text taken as given, untrimmed (a password may end in a space). */
    static ClientSetting<String> verbatim(String key, String type, String description) {
        return of(key, type, "text", text -> text, null, description);
    }

    /**
     * A whole number in [min, max]; without a default it is required: {@code <key> is required: an
     * integer in [min, max]}.
     */
    static ClientSetting<Integer> integer(
            String key, Integer defaultValue, int min, int max, String description) {
        ClientSetting<Integer> setting =
                of(key, "integer", "an integer", Integer::parseInt, defaultValue, description)
                        .check(n -> n >= min && n <= max, "must be in [" + min + ", " + max + "]");
        return setting.requiredAs("an integer in [" + min + ", " + max + "]");
    }

    /** A whole number of type long, read with {@code expected} naming what it must be. */
    static ClientSetting<Long> longInteger(
            String key, long defaultValue, String expected, String description) {
        return of(key, "integer", expected, Long::parseLong, defaultValue, description);
    }

    /**
     * A number read by {@code parser} (say {@code ln(9)}), {@code expected} naming what it takes.
     */
    static ClientSetting<Double> number(
            String key,
            Function<String, Double> parser,
            double defaultValue,
            String type,
            String expected,
            String description) {
        return of(key, type, expected, parser, defaultValue, description);
    }

    /** {@code true} or {@code false}, in any case. */
    static ClientSetting<Boolean> bool(String key, boolean defaultValue, String description) {
        return of(
                key,
                "true|false",
                "true or false",
                ClientSetting::parseBoolean,
                defaultValue,
                description);
    }

    /** An ISO-8601 duration such as {@code PT1H}, in any case. */
    static ClientSetting<Duration> duration(String key, Duration defaultValue, String description) {
        return of(
                key,
                "ISO-8601 duration",
                "an ISO-8601 duration such as PT1H",
                text -> Duration.parse(text.toUpperCase(Locale.ROOT)),
                defaultValue,
                description);
    }

    /** A file or directory path. */
    static ClientSetting<Path> path(String key, String description) {
        return of(key, "path", "a path", Paths::get, null, description);
    }

    /**
     * A value read by {@code parser}, which throws any {@link RuntimeException} for text that is
     * not one; {@code expected} names what it takes ({@code <key> must be <expected>, got ...}).
     */
    static <T> ClientSetting<T> parsed(
            String key,
            String type,
            String expected,
            Function<String, T> parser,
            T defaultValue,
            String description) {
        return of(key, type, expected, parser, defaultValue, description);
    }

    /** This setting, also taking {@code word} (in any case) for {@code value}. */
    ClientSetting<T> orWord(String word, T value) {
        Map<String, T> more = new LinkedHashMap<>(words);
        more.put(word.toLowerCase(Locale.ROOT), value);
        return new ClientSetting<>(
                key,
                type,
                expected,
                parser,
                more,
                normalizer,
                defaultValue,
                defaultText,
                required,
                checks,
                description);
    }

    /**
     * This setting, refusing a set value for which {@code ok} fails: {@code <key> <requirement>}.
     */
    ClientSetting<T> check(Predicate<T> ok, String requirement) {
        List<Check<T>> more = new ArrayList<>(checks);
        more.add(new Check<>(ok, requirement));
        return new ClientSetting<>(
                key,
                type,
                expected,
                parser,
                words,
                normalizer,
                defaultValue,
                defaultText,
                required,
                List.copyOf(more),
                description);
    }

    /** This setting, refusing to be unset: {@code <key> is required: <what>}. */
    ClientSetting<T> requiredAs(String what) {
        return new ClientSetting<>(
                key,
                type,
                expected,
                parser,
                words,
                normalizer,
                defaultValue,
                defaultText,
                what,
                checks,
                description);
    }

    /**
     * This setting with its default described in words for the docs (Markdown): a default derived
     * at build time, say.
     */
    ClientSetting<T> defaultText(String text) {
        return new ClientSetting<>(
                key,
                type,
                expected,
                parser,
                words,
                normalizer,
                defaultValue,
                text,
                required,
                checks,
                description);
    }

    String key() {
        return key;
    }

    /** The value a builder starts with; null when unset. */
    T defaultValue() {
        return defaultValue;
    }

    /**
     * The default as docs/client-config.md writes it (Markdown): the words given to {@link
     * #defaultText(String)}, else the default value as code, else {@code required} or {@code none}.
     */
    String defaultText() {
        if (defaultText != null) {
            return defaultText;
        }
        if (defaultValue != null) {
            return "`" + defaultValue + "`";
        }
        return required != null ? "required" : "none";
    }

    /** What the setting takes, for the docs: its type, its words and its checks. */
    String accepts() {
        StringBuilder out = new StringBuilder(type);
        words.keySet().forEach(word -> out.append(", `").append(word).append('`'));
        checks.forEach(check -> out.append("; ").append(check.requirement()));
        return out.toString();
    }

    String description() {
        return description;
    }

    /**
     * The value {@code text} (already trimmed) stands for.
     *
     * @throws IllegalArgumentException {@code <key> must be <expected>, got '<text>'}
     */
    T parse(String text) {
        String word = text.toLowerCase(Locale.ROOT);
        if (words.containsKey(word)) {
            return words.get(word);
        }
        try {
            return parser.apply(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    key + " must be " + expected + ", got '" + text + "'");
        }
    }

    /**
     * {@code value} as the configuration keeps it (text trimmed), after every check.
     *
     * @throws IllegalArgumentException naming the key and the value it refuses, or that it is
     *     required
     */
    T validated(T value) {
        T normalized = value == null ? null : normalizer.apply(value);
        if (normalized == null) {
            if (required != null) {
                throw missing(key, required);
            }
            return null;
        }
        for (Check<T> check : checks) {
            if (!check.ok().test(normalized)) {
                throw new IllegalArgumentException(
                        key + " " + check.requirement() + ", got " + normalized);
            }
        }
        return normalized;
    }

    /** {@code <key> is required: <what>}. */
    static IllegalArgumentException missing(String key, String what) {
        return new IllegalArgumentException(key + " is required: " + what);
    }

    private static String trimmedOrNull(String text) {
        return text.isBlank() ? null : text.trim();
    }

    private static Boolean parseBoolean(String text) {
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException(text);
    }

    @Override
    public String toString() {
        return key;
    }
}
