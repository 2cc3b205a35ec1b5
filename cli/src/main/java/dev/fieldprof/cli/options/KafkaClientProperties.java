package dev.fieldprof.cli.options;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.jobs.io.KafkaClientSettings;
import dev.fieldprof.jobs.io.KafkaConnectionCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The {@code --kafka-properties FILE} option (a picocli mixin of every command that talks to
 * Kafka): Kafka client properties (security, timeouts) passed through unchanged to every client a
 * command opens, like Kafka's own {@code --command-config}.
 *
 * <p>{@link #connect} is how a command starts: it reads the file and asks the brokers once with a
 * bounded wait, so that a wrong password or an untrusted certificate ends the command with one line
 * naming the problem instead of a client retrying quietly.
 */
public final class KafkaClientProperties {
    @Option(
            names = "--kafka-properties",
            paramLabel = "FILE",
            description =
                    "Kafka client properties passed unchanged to every Kafka client (security"
                            + " settings such as security.protocol, sasl.*, ssl.*; timeouts).")
    Path file;

    /** The file as given, or null. */
    public Path file() {
        return file;
    }

    /**
     * The file's properties with {@code bootstrap.servers} set to {@code bootstrap}.
     *
     * @throws IllegalArgumentException naming the file (never its contents) when it is unreadable
     */
    public Properties with(String bootstrap) {
        return KafkaClientSettings.load(
                file == null ? null : file.toString(), "--kafka-properties", bootstrap);
    }

    /**
     * The client properties for {@code bootstrap}, once a broker answered with them.
     *
     * @throws CommandLine.ParameterException when the file cannot be read (exit 2)
     * @throws CliFailure with one line naming the problem when no broker answered or one refused
     *     the credentials or the TLS handshake, within {@link KafkaConnectionCheck#DEFAULT_TIMEOUT}
     */
    public Properties connect(String bootstrap, CommandLine commandLine) {
        return connect(bootstrap, commandLine, KafkaConnectionCheck.DEFAULT_TIMEOUT);
    }

    /** As {@link #connect(String, CommandLine)}, waiting at most {@code timeout} for an answer. */
    public Properties connect(String bootstrap, CommandLine commandLine, Duration timeout) {
        Properties client;
        try {
            client = with(bootstrap);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        }
        check(client, timeout);
        return client;
    }

    /**
     * Asks the brokers once with these client properties.
     *
     * @throws CliFailure with one line naming the problem
     */
    public static void check(Properties client) {
        check(client, KafkaConnectionCheck.DEFAULT_TIMEOUT);
    }

    /**
     * Asks the brokers once with these client properties, waiting at most {@code timeout}.
     *
     * @throws CliFailure with one line naming the problem
     */
    public static void check(Properties client, Duration timeout) {
        try {
            KafkaConnectionCheck.check(client, timeout);
        } catch (KafkaConnectionCheck.KafkaConnectionException e) {
            throw new CliFailure(e.getMessage(), e.getCause());
        }
    }

    /** A Kafka client's failure as one line for the user (refused login, TLS, timeout, other). */
    public static CliFailure failure(Throwable failure, Properties client) {
        return new CliFailure(KafkaConnectionCheck.describe(failure, client), failure);
    }
}
