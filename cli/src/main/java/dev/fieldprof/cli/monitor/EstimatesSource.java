package dev.fieldprof.cli.monitor;

import dev.fieldprof.schemas.Topics;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Where the live views read estimates from: the options {@code watch} and {@code monitor} share.
 */
final class EstimatesSource {
    @Option(
            names = "--bootstrap",
            required = true,
            paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(
            names = "--app",
            paramLabel = "APP:VERSION",
            description = "Show only this app version (default: all).")
    String app;

    @Option(
            names = "--topic",
            defaultValue = Topics.ESTIMATES,
            description = "Estimates topic (default: ${DEFAULT-VALUE}).")
    String topic;

    /** Checks the values picocli cannot; a bad one is a usage error naming the option. */
    void validate(CommandLine commandLine) {
        if (app != null && !app.contains(":")) {
            throw new CommandLine.ParameterException(
                    commandLine, "--app must be APP:VERSION, got '" + app + "'");
        }
    }
}
