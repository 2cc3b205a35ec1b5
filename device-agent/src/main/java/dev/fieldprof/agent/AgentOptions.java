package dev.fieldprof.agent;

import java.nio.file.Path;

/**
 * The device agent's options, from {@code -javaagent:fieldprof-device.jar=model=FILE[,paths]}: the
 * program model whose classes get probes, and whether this device opts in to path tracing (the same
 * as {@code -Dfieldprof.paths.enabled=true}, which still wins when set). Immutable.
 *
 * @param model the program model file ({@code fieldprof analyze}, or {@code fieldprof plan} for a
 *     planned one)
 * @param paths whether the device traces paths, so that the agent inserts path probes
 */
record AgentOptions(Path model, boolean paths) {

    static final String USAGE = "-javaagent:fieldprof-device.jar=model=FILE[,paths]";

    /**
     * Parses the agent's argument string.
     *
     * @throws IllegalArgumentException naming what is wrong, in one line
     */
    static AgentOptions parse(String arguments) {
        if (arguments == null || arguments.isBlank()) {
            throw new IllegalArgumentException("no program model given: use " + USAGE);
        }
        Path model = null;
        boolean paths = false;
        for (String item : arguments.split(",")) {
            String option = item.strip();
            if (option.startsWith("model=")) {
                String file = option.substring("model=".length()).strip();
                if (file.isEmpty() || model != null) {
                    throw new IllegalArgumentException(
                            "model= needs exactly one file: use " + USAGE);
                }
                model = Path.of(file);
            } else if (option.equals("paths")) {
                paths = true;
            } else {
                throw new IllegalArgumentException(
                        "unknown agent option '" + option + "': use " + USAGE);
            }
        }
        if (model == null) {
            throw new IllegalArgumentException("no program model given: use " + USAGE);
        }
        return new AgentOptions(model, paths);
    }
}
