package dev.fieldprof.jobs.io;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --key value} (or {@code --key=value}) arguments of a job's {@code main()} as option
 * name → value; {@link JobOptionValues} checks them against the job's declared options.
 */
public final class JobArguments {
    private JobArguments() {}

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
}
