package dev.fieldprof.cli.topics;

import dev.fieldprof.cli.CliFailure;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
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

    @Option(
            names = "--bootstrap",
            required = true,
            paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers.")
    String bootstrap;

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
        try (FieldprofTopics topics = new FieldprofTopics(bootstrap, spec.commandLine().getOut())) {
            int differing = topics.createMissing(partitions, replicationFactor, fix);
            spec.commandLine().getOut().flush();
            return differing == 0 ? 0 : 1;
        } catch (ExecutionException e) {
            throw new CliFailure("kafka at " + bootstrap + ": " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new CliFailure("kafka at " + bootstrap + " did not answer within 30 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure("interrupted", e);
        }
    }
}
