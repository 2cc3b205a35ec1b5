package dev.fieldprof.cli.options;

import picocli.CommandLine.Option;

/** The {@code --bootstrap} option of every command that talks to Kafka (a picocli mixin). */
public final class KafkaBootstrap {
    @Option(
            names = "--bootstrap",
            required = true,
            paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers.")
    String servers;

    /** The bootstrap servers as given. */
    public String servers() {
        return servers;
    }
}
