package dev.fieldprof.cli.options;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.jobs.io.KafkaConnectionCheck;
import java.util.Properties;

/**
 * The one line a command ends with when a Kafka client fails: for a refused login or TLS handshake
 * the line {@link KafkaConnectionCheck} words (naming the setting, never a secret), otherwise the
 * command's own description of what it could not do.
 */
public final class KafkaFailure {
    private KafkaFailure() {}

    /**
     * @param failure what the Kafka client threw
     * @param client the client properties it ran with
     * @param otherwise the line for any other failure
     */
    public static CliFailure of(RuntimeException failure, Properties client, String otherwise) {
        return KafkaConnectionCheck.problem(failure, client)
                .map(line -> new CliFailure(line, failure))
                .orElseGet(() -> new CliFailure(otherwise, failure));
    }
}
