package dev.fieldprof.cli.topics;

import dev.fieldprof.cli.options.KafkaBootstrap;
import dev.fieldprof.cli.options.KafkaClientProperties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fieldprof topics create}: creates the missing fieldprof topics. */
@Command(
        name = "create",
        mixinStandardHelpOptions = true,
        description = {
            "Create the fieldprof topics that do not exist yet, and check the settings of those"
                    + " that do (--fix sets what differs, e.g. a report topic that keeps the"
                    + " producers' clocks).",
            "Exit 0 when every topic has the settings fieldprof needs, 1 otherwise."
        })
public final class TopicsCreateCommand implements Callable<Integer> {

    @Mixin KafkaBootstrap bootstrap;

    @Mixin KafkaClientProperties kafka;

    @Option(
            names = "--partitions",
            defaultValue = "4",
            description =
                    "Partitions of each new topic (default: ${DEFAULT-VALUE}); reports spread over"
                            + " them by device id.")
    int partitions;

    @Option(
            names = "--replication-factor",
            defaultValue = "1",
            description = "Replication factor of each new topic (default: ${DEFAULT-VALUE}).")
    short replicationFactor;

    @Option(
            names = "--fix",
            description = "Set the settings fieldprof needs on existing topics that differ.")
    boolean fix;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (partitions < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--partitions must be >= 1, got " + partitions);
        }
        if (replicationFactor < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--replication-factor must be >= 1, got " + replicationFactor);
        }
        int differing =
                FieldprofTopics.run(
                        kafka.connect(bootstrap.servers(), spec.commandLine()),
                        spec.commandLine().getOut(),
                        topics -> topics.createMissing(partitions, replicationFactor, fix));
        return differing == 0 ? 0 : 1;
    }
}
