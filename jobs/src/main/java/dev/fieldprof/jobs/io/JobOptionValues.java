package dev.fieldprof.jobs.io;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a job's declared options ({@link JobOption}), parsed from {@code --name value}
 * arguments over the defaults: every unknown option, missing value, missing required option and
 * value out of range is an {@link IllegalArgumentException} naming the option. Immutable.
 */
public final class JobOptionValues {
    /** Columns of a help line's text after its indent: 80 in all. */
    private static final int HELP_WIDTH = 74;

    private static final String HELP_INDENT = "      ";

    private final List<JobOption<?>> declared;
    private final Map<String, Object> values;

    private JobOptionValues(List<JobOption<?>> declared, Map<String, Object> values) {
        this.declared = declared;
        this.values = values;
    }

    /**
     * Parses {@code given} (option name without dashes → text) against the declared options.
     *
     * @throws IllegalArgumentException naming an unknown option, the required ones missing, or an
     *     option whose value is bad
     */
    public static JobOptionValues parse(List<JobOption<?>> declared, Map<String, String> given) {
        Map<String, JobOption<?>> byName = new LinkedHashMap<>();
        for (JobOption<?> option : declared) {
            if (byName.put(option.key(), option) != null) {
                throw new IllegalStateException("--" + option.key() + " declared twice");
            }
        }
        for (String name : given.keySet()) {
            if (!byName.containsKey(name)) {
                throw new IllegalArgumentException(
                        "unknown option --"
                                + name
                                + "; known: --"
                                + String.join(", --", byName.keySet()));
            }
        }
        List<String> missing =
                declared.stream()
                        .filter(o -> o.required() && given.get(o.key()) == null)
                        .map(JobOption::key)
                        .toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(
                    "missing required option(s): --" + String.join(", --", missing));
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (JobOption<?> option : declared) {
            String text = given.getOrDefault(option.key(), option.defaultText());
            values.put(option.key(), option.parse(text));
        }
        return new JobOptionValues(List.copyOf(declared), values);
    }

    /** Parses {@code --name value} and {@code --name=value} arguments. */
    public static JobOptionValues parse(List<JobOption<?>> declared, String... args) {
        return parse(declared, JobArguments.split(args));
    }

    /** The value of a declared option. */
    @SuppressWarnings("unchecked")
    public <T> T get(JobOption<T> option) {
        if (!values.containsKey(option.key())) {
            throw new IllegalArgumentException(option + " is not an option of this job");
        }
        return (T) values.get(option.key());
    }

    /** Every option by name as text that parses back to the same values. */
    public Map<String, String> toMap() {
        Map<String, String> map = new LinkedHashMap<>();
        for (JobOption<?> option : declared) {
            map.put(option.key(), formatted(option));
        }
        return map;
    }

    /** These values with some changed, e.g. {@code with(Map.of("shards", "2"))}. */
    public JobOptionValues with(Map<String, String> changes) {
        Map<String, String> map = toMap();
        map.putAll(changes);
        return parse(declared, map);
    }

    private <T> String formatted(JobOption<T> option) {
        return option.format(get(option));
    }

    /**
     * The options as a job's {@code --help} prints them: one per line, {@code --name TYPE}, then
     * what it means and its default, wrapped to fit 80 columns.
     */
    public static String help(List<JobOption<?>> declared) {
        StringBuilder out = new StringBuilder();
        for (JobOption<?> option : declared) {
            out.append("  --").append(option.key()).append(' ').append(option.type());
            out.append(System.lineSeparator());
            String text =
                    option.description()
                            + (option.required()
                                    ? " (required)"
                                    : option.defaultText().isEmpty()
                                            ? " (default: none)"
                                            : " (default: " + option.defaultText() + ")");
            StringBuilder line = new StringBuilder();
            for (String word : text.split(" ")) {
                if (line.length() > 0 && line.length() + 1 + word.length() > HELP_WIDTH) {
                    out.append(HELP_INDENT).append(line).append(System.lineSeparator());
                    line.setLength(0);
                }
                line.append(line.length() > 0 ? " " : "").append(word);
            }
            out.append(HELP_INDENT).append(line).append(System.lineSeparator());
        }
        return out.toString();
    }

    /** The options as a Markdown table: option, what it means, default. */
    public static String markdown(List<JobOption<?>> declared) {
        StringBuilder out = new StringBuilder("| option | meaning | default |\n|---|---|---|\n");
        for (JobOption<?> option : declared) {
            out.append("| `--")
                    .append(option.key())
                    .append(' ')
                    .append(option.type().replace("|", "\\|"))
                    .append("` | ")
                    .append(option.description().replace("|", "\\|"))
                    .append(" | ")
                    .append(
                            option.required()
                                    ? "required"
                                    : option.defaultText().isEmpty()
                                            ? "none"
                                            : "`" + option.defaultText() + "`")
                    .append(" |\n");
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof JobOptionValues that && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return toMap().toString();
    }
}
