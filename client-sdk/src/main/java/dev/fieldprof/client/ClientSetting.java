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
    private final UnaryOperator<T> normalizer;
    private final T defaultValue;
    private final String description;
    private final Rules<T> rules;

    /** What a declaration adds after its type: words, checks, required-ness, the docs' default. */
    private record Rules<T>(
            Map<String, T> words, List<Check<T>> checks, String required, String defaultText) {}

    private record Check<T>(Predicate<T> ok, String requirement) {}

    private ClientSetting(
            String key,
            String type,
            String expected,
            Function<String, T> parser,
            UnaryOperator<T> normalizer,
            T defaultValue,
            String description,
            Rules<T> rules) {
        this.key = Objects.requireNonNull(key, "key");
        this.type = type;
        this.expected = expected;
        this.parser = parser;
        this.normalizer = normalizer;
        this.defaultValue = defaultValue;
        this.description = Objects.requireNonNull(description, "description");
        this.rules = rules;
    }

    private ClientSetting<T> with(Rules<T> changed) {
        return new ClientSetting<>(
                key, type, expected, parser, normalizer, defaultValue, description, changed);
    }

    /**
     * A value read by {@code parser}, which throws any {@link RuntimeException} for text that is
     * not one; {@code type} says what it takes in the docs, {@code expected} in a message ({@code
     * <key> must be <expected>, got '<text>'}).
     *
     * @param defaultValue the value a builder starts with, or null for unset
     */
    static <T> ClientSetting<T> parsed(
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
                UnaryOperator.identity(),
                defaultValue,
                description,
                new Rules<>(Map.of(), List.of(), null, null));
    }

    /** Text, trimmed; blank text is unset (null). */
    static ClientSetting<String> text(String key, String defaultValue, String description) {
        return new ClientSetting<>(
                key,
                "text",
                "text",
                text -> text,
                text -> text.isBlank() ? null : text.trim(),
                defaultValue,
                description,
                new Rules<>(Map.of(), List.of(), null, null));
    }

    /**
     * A whole number in [min, max]; unset it is refused: {@code <key> is required: an integer in
     * [min, max]}.
     */
    static ClientSetting<Integer> integer(
            String key, Integer defaultValue, int min, int max, String description) {
        String range = "[" + min + ", " + max + "]";
        return parsed(key, "integer", "an integer", Integer::parseInt, defaultValue, description)
                .check(n -> n >= min && n <= max, "must be in " + range)
                .requiredAs("an integer in " + range);
    }

    /** {@code true} or {@code false}, in any case. */
    static ClientSetting<Boolean> bool(String key, boolean defaultValue, String description) {
        return parsed(
                key,
                "true|false",
                "true or false",
                ClientSetting::parseBoolean,
                defaultValue,
                description);
    }

    /** An ISO-8601 duration such as {@code PT1H}, in any case. */
    static ClientSetting<Duration> duration(String key, Duration defaultValue, String description) {
        return parsed(
                key,
                "ISO-8601 duration",
                "an ISO-8601 duration such as PT1H",
                text -> Duration.parse(text.toUpperCase(Locale.ROOT)),
                defaultValue,
                description);
    }

    /** A file or directory path, unset by default. */
    static ClientSetting<Path> path(String key, String description) {
        return parsed(key, "path", "a path", Paths::get, null, description);
    }

    /** This setting, also taking {@code word} (in any case) for {@code value}. */
    ClientSetting<T> orWord(String word, T value) {
        Map<String, T> words = new LinkedHashMap<>(rules.words());
        words.put(word.toLowerCase(Locale.ROOT), value);
        return with(new Rules<>(words, rules.checks(), rules.required(), rules.defaultText()));
    }

    /**
     * This setting, refusing a set value for which {@code ok} fails: {@code <key> <requirement>,
     * got <value>}.
     */
    ClientSetting<T> check(Predicate<T> ok, String requirement) {
        List<Check<T>> checks = new ArrayList<>(rules.checks());
        checks.add(new Check<>(ok, requirement));
        return with(
                new Rules<>(
                        rules.words(), List.copyOf(checks), rules.required(), rules.defaultText()));
    }

    /** This setting, refusing to be unset: {@code <key> is required: <what>}. */
    ClientSetting<T> requiredAs(String what) {
        return with(new Rules<>(rules.words(), rules.checks(), what, rules.defaultText()));
    }

    /**
     * This setting with its default described in words for the docs (Markdown): a default derived
     * at build time, say.
     */
    ClientSetting<T> defaultText(String text) {
        return with(new Rules<>(rules.words(), rules.checks(), rules.required(), text));
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
        if (rules.defaultText() != null) {
            return rules.defaultText();
        }
        if (defaultValue != null) {
            return "`" + defaultValue + "`";
        }
        return rules.required() != null ? "required" : "none";
    }

    /** What the setting takes, for the docs: its type, its words and its checks. */
    String accepts() {
        StringBuilder out = new StringBuilder(type);
        rules.words().keySet().forEach(word -> out.append(", `").append(word).append('`'));
        rules.checks().forEach(check -> out.append("; ").append(check.requirement()));
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
        if (rules.words().containsKey(word)) {
            return rules.words().get(word);
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
            if (rules.required() != null) {
                throw missing(key, rules.required());
            }
            return null;
        }
        for (Check<T> check : rules.checks()) {
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
