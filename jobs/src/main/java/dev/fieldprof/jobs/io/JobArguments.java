package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.util.TimeUtils;

/**
 * The {@code --key value} (or {@code --key=value}) arguments of a job's {@code main()}, checked
 * against the job's options and their defaults, with typed getters whose errors name the option.
 * Immutable.
 */
public final class JobArguments {
    private final Map<String, String> values;

    private JobArguments(Map<String, String> values) {
        this.values = values;
    }

    /**
     * Splits {@code --key value} and {@code --key=value} pairs into option name (without dashes) →
     * value, in order.
     *
     * @throws IllegalArgumentException for a token that is not an option or lacks its value
     */
    public static Map<String, String> split(String... args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("expected --option, got '" + arg + "'");
            }
            String name = arg.substring(2);
            String value;
            int equals = name.indexOf('=');
            if (equals >= 0) {
                value = name.substring(equals + 1);
                name = name.substring(0, equals);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
            given.put(name, value);
        }
        return given;
    }

    /**
     * The given options over the defaults.
     *
     * @param defaults every option of the job with its default; {@code null} marks a required one
     * @throws IllegalArgumentException naming an unknown option, or every required one missing
     */
    public static JobArguments of(Map<String, String> defaults, Map<String, String> given) {
        for (String name : given.keySet()) {
            if (!defaults.containsKey(name)) {
                throw new IllegalArgumentException(
                        "unknown option --"
                                + name
                                + "; known: --"
                                + String.join(", --", defaults.keySet()));
            }
        }
        Map<String, String> all = new LinkedHashMap<>(defaults);
        all.putAll(given);
        List<String> missing =
                all.entrySet().stream()
                        .filter(e -> e.getValue() == null)
                        .map(Map.Entry::getKey)
                        .toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(
                    "missing required option(s): --" + String.join(", --", missing));
        }
        return new JobArguments(all);
    }

    public String string(String name) {
        return values.get(name);
    }

    /** A duration such as {@code 30 s}, {@code 1min}, {@code 500ms}. */
    public Duration duration(String name) {
        try {
            return TimeUtils.parseDuration(values.get(name));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "--" + name + ": not a duration: '" + values.get(name) + "'", e);
        }
    }

    public int integer(String name) {
        try {
            return Integer.parseInt(values.get(name).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--" + name + ": not an integer: '" + values.get(name) + "'", e);
        }
    }

    public double number(String name) {
        try {
            return Double.parseDouble(values.get(name).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--" + name + ": not a number: '" + values.get(name) + "'", e);
        }
    }

    /** A check of a constructed option value: throws {@code message} unless {@code ok}. */
    public static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
