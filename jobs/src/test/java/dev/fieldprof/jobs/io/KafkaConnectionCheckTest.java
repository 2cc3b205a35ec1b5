package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertPathValidatorException;
import java.time.Duration;
import java.util.Properties;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-line messages of Kafka connection failures: each names the broker, the problem and the
 * setting to check, and none repeats a password. (The real failures, from a SASL_SSL broker, are in
 * the integration tests' SecuredKafkaITCase.)
 */
class KafkaConnectionCheckTest {
    private static final String SECRET = "s3cr3t-Pa55";

    @TempDir Path dir;

    private static Properties scram() {
        Properties client = new Properties();
        client.put("bootstrap.servers", "broker-1:9094");
        client.put("security.protocol", "SASL_SSL");
        client.put("sasl.mechanism", "SCRAM-SHA-512");
        client.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"fieldprof\" password=\""
                        + SECRET
                        + "\";");
        return client;
    }

    @Test
    void namesUserMechanismAndSettingOfARefusedLogin() {
        String line =
                KafkaConnectionCheck.describe(
                        new KafkaException(
                                "wrapped",
                                new SaslAuthenticationException(
                                        "Authentication failed during authentication due to"
                                                + " invalid credentials with SASL mechanism"
                                                + " SCRAM-SHA-512")),
                        scram());
        assertThat(line)
                .isEqualTo(
                        "Kafka authentication failed for user fieldprof at broker-1:9094 (SASL"
                                + " SCRAM-SHA-512): check sasl.jaas.config");
    }

    @Test
    void namesTheTruststoreWhenTheCertificateIsNotTrusted() {
        Throwable handshake =
                new SSLHandshakeException("PKIX path building failed")
                        .initCause(new CertPathValidatorException("no trust anchor"));
        String line =
                KafkaConnectionCheck.describe(
                        new SslAuthenticationException("SSL handshake failed", handshake), scram());
        assertThat(line)
                .isEqualTo(
                        "TLS handshake with broker-1:9094 failed: the broker's certificate is not"
                                + " trusted (ssl.truststore.location)");
    }

    @Test
    void namesTheHostnameSettingWhenTheCertificateNamesAnotherHost() {
        Throwable handshake =
                new SSLHandshakeException("No subject alternative names matching IP address");
        assertThat(
                        KafkaConnectionCheck.describe(
                                new SslAuthenticationException("SSL handshake failed", handshake),
                                scram()))
                .isEqualTo(
                        "TLS handshake with broker-1:9094 failed: the broker's certificate does"
                                + " not name that host (ssl.endpoint.identification.algorithm)");
    }

    @Test
    void namesTheUserARefusedPermissionConcerns() {
        assertThat(
                        KafkaConnectionCheck.describe(
                                new TopicAuthorizationException("Not authorized to access topics"),
                                scram()))
                .isEqualTo(
                        "Kafka at broker-1:9094 refused for user fieldprof: Not authorized to"
                                + " access topics");
    }

    @Test
    void timesOutWithinTheBoundAtAPortNobodyAnswers() {
        Properties client = new Properties();
        // A TCP port that accepts nothing: the admin client's connection is refused over and over.
        client.put("bootstrap.servers", "127.0.0.1:1");
        long start = System.nanoTime();
        assertThatThrownBy(() -> KafkaConnectionCheck.check(client, Duration.ofSeconds(2)))
                .isInstanceOf(KafkaConnectionCheck.KafkaConnectionException.class)
                .hasMessageStartingWith("no Kafka broker answered at 127.0.0.1:1")
                .hasMessageContaining("security.protocol=PLAINTEXT");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void loadsAPropertiesFileUnchangedAndNamesAMissingOne() throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SSL\nbootstrap.servers=elsewhere:1\n");
        Properties loaded = KafkaClientSettings.load(file.toString(), "--kafka-properties", "b:1");
        assertThat(loaded).hasSize(2);
        assertThat(loaded.getProperty("security.protocol")).isEqualTo("SSL");
        assertThat(loaded.getProperty("bootstrap.servers")).isEqualTo("b:1");
        assertThatThrownBy(
                        () ->
                                KafkaClientSettings.load(
                                        dir.resolve("none").toString(),
                                        "--kafka-properties",
                                        "b:1"))
                .hasMessage(
                        "--kafka-properties: cannot read "
                                + dir.resolve("none")
                                + " (no such file)");
    }
}
