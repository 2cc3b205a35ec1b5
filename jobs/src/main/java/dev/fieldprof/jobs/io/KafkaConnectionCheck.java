package dev.fieldprof.jobs.io;

import java.security.cert.CertPathValidatorException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;

/**
 * Asks the brokers for the cluster's nodes with the user's client properties before a command or
 * job opens its own clients, and turns what went wrong into one line naming the problem. Kafka's
 * producers and consumers retry a refused login or TLS handshake quietly until their timeouts (a
 * consumer's poll forever), so without this a wrong password looks like a hang. Messages name the
 * user and the setting to check, never a password.
 */
public final class KafkaConnectionCheck {
    /** How long the check waits for an answer unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

    private static final Pattern USERNAME = Pattern.compile("username\\s*=\\s*\"([^\"]*)\"");

    private KafkaConnectionCheck() {}

    /** The check failed; the message is one line for the user. */
    public static final class KafkaConnectionException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        KafkaConnectionException(String message, Throwable cause) {
            super(message, cause);
        }

        /**
         * Whether a broker answered and refused (credentials, certificate, permission), as opposed
         * to no broker answering: only a refusal is sure to fail elsewhere too (a job's cluster may
         * reach brokers this machine cannot).
         */
        public boolean refused() {
            for (Throwable t = getCause(); t != null; t = t.getCause()) {
                if (t instanceof AuthenticationException || t instanceof AuthorizationException) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Returns once a broker answered a metadata request with these client properties.
     *
     * @param client client properties with {@code bootstrap.servers}, passed unchanged (timeouts of
     *     the check itself aside)
     * @throws KafkaConnectionException with one line naming the problem: authentication refused,
     *     certificate not trusted, no answer within {@code timeout}, or unusable settings
     */
    public static void check(Properties client, Duration timeout) {
        Properties properties = KafkaClientSettings.copyOf(client);
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(millis));
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(millis));
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "fieldprof-connection-check");
        Admin admin;
        try {
            admin = Admin.create(properties);
        } catch (KafkaException e) {
            throw new KafkaConnectionException(describe(e, client), e);
        }
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(millis))
                    .nodes()
                    .get(millis + 1_000L, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            String line =
                    e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException
                            ? noAnswer(client, timeout)
                            : describe(e.getCause(), client);
            throw new KafkaConnectionException(line, e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaConnectionException(noAnswer(client, timeout), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaConnectionException("interrupted while connecting to Kafka", e);
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    /**
     * One line describing a failure of a Kafka client made with {@code client}: what Kafka refused
     * and which setting to check for authentication, TLS and authorization failures and timeouts,
     * else the failure's own message.
     */
    public static String describe(Throwable failure, Properties client) {
        return problem(failure, client).orElseGet(() -> ownMessage(failure, client));
    }

    /**
     * One line for a failure that is a refused login, an untrusted or mismatched certificate, a
     * refused permission or a timeout; empty for any other failure.
     */
    public static Optional<String> problem(Throwable failure, Properties client) {
        String at = bootstrap(client);
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SslAuthenticationException) {
                return Optional.of(tlsFailure(t, at));
            }
            if (t instanceof SaslAuthenticationException) {
                return Optional.of(
                        "Kafka authentication failed"
                                + user(client)
                                + " at "
                                + at
                                + " (SASL "
                                + client.getProperty(SaslConfigs.SASL_MECHANISM, "GSSAPI")
                                + "): check sasl.jaas.config");
            }
            if (t instanceof AuthenticationException) {
                return Optional.of(
                        "Kafka authentication failed at " + at + ": " + firstLine(t.getMessage()));
            }
            if (t instanceof AuthorizationException) {
                return Optional.of(
                        "Kafka at "
                                + at
                                + " refused"
                                + user(client)
                                + ": "
                                + firstLine(t.getMessage()));
            }
            if (t instanceof org.apache.kafka.common.errors.TimeoutException) {
                return Optional.of(noAnswer(client, null));
            }
        }
        return Optional.empty();
    }

    private static String tlsFailure(Throwable failure, String at) {
        String prefix = "TLS handshake with " + at + " failed: ";
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof CertPathValidatorException
                    || t.getClass().getName().endsWith("SunCertPathBuilderException")) {
                return prefix + "the broker's certificate is not trusted (ssl.truststore.location)";
            }
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (message.contains("subject alternative") || message.contains("no name matching")) {
                return prefix
                        + "the broker's certificate does not name that host"
                        + " (ssl.endpoint.identification.algorithm)";
            }
        }
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return prefix
                + firstLine(root.getMessage())
                + (root instanceof SSLHandshakeException ? " (ssl.* settings)" : "");
    }

    private static String noAnswer(Properties client, Duration timeout) {
        return "no Kafka broker answered at "
                + bootstrap(client)
                + (timeout == null ? "" : " within " + timeout.toSeconds() + " s")
                + " (is it running, and do security.protocol="
                + client.getProperty(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT")
                + " and the port match its listener?)";
    }

    private static String ownMessage(Throwable failure, Properties client) {
        Throwable shown = failure;
        // "Failed to construct kafka consumer" says less than its cause (a missing keystore).
        while (shown.getCause() != null
                && shown instanceof KafkaException
                && String.valueOf(shown.getMessage()).startsWith("Failed to construct")) {
            shown = shown.getCause();
        }
        return "Kafka at "
                + bootstrap(client)
                + ": "
                + shown.getClass().getSimpleName()
                + (shown.getMessage() == null ? "" : ": " + firstLine(shown.getMessage()));
    }

    /** " for user NAME" from the JAAS configuration's username (never the password), or "". */
    private static String user(Properties client) {
        String jaas = client.getProperty(SaslConfigs.SASL_JAAS_CONFIG);
        if (jaas == null) {
            return "";
        }
        Matcher matcher = USERNAME.matcher(jaas);
        return matcher.find() ? " for user " + matcher.group(1) : "";
    }

    private static String bootstrap(Properties client) {
        return client.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "?");
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
