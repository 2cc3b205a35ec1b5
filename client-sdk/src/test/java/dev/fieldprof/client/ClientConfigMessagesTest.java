package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading and checking every setting through {@link ClientConfig#fromProperties}: each bad value is
 * refused on one line naming the key and the value, each default is the documented one.
 */
class ClientConfigMessagesTest {
    @TempDir Path dir;

    private Properties minimal() {
        Properties p = new Properties();
        p.setProperty("app.version", "demo:1.0");
        p.setProperty("method.count", "120");
        p.setProperty("state.dir", dir.toString());
        return p;
    }

    private String refusal(String key, String value) {
        Properties p = minimal();
        p.setProperty(key, value);
        try {
            ClientConfig.fromProperties(p);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError(key + "=" + value + " was taken");
    }

    @Test
    void textThatIsNoValueOfItsTypeIsRefusedNamingKeyAndText() {
        assertThat(refusal("transport.queue.capacity", "many"))
                .isEqualTo("transport.queue.capacity must be an integer, got 'many'");
        assertThat(refusal("state.lock.wait", "soon"))
                .isEqualTo("state.lock.wait must be an ISO-8601 duration such as PT1H, got 'soon'");
        assertThat(refusal("paths.enabled", "yes"))
                .isEqualTo("paths.enabled must be true or false, got 'yes'");
        assertThat(refusal("epoch.end.at.exit", "1"))
                .isEqualTo("epoch.end.at.exit must be true or false, got '1'");
        assertThat(refusal("privacy.mode", "strict"))
                .isEqualTo("privacy.mode must be 'epsilon-t' or 'user-level', got 'strict'");
        assertThat(refusal("privacy.epsilon", "lots"))
                .isEqualTo("privacy.epsilon must be a number > 0 or ln(x), got 'lots'");
        assertThat(refusal("transport.spool.max.bytes", "1e6"))
                .isEqualTo("transport.spool.max.bytes must be an integer in [1, 2^40], got '1e6'");
        assertThat(refusal("checkpoint.interval", " never "))
                .isEqualTo(
                        "checkpoint.interval must be an ISO-8601 duration such as PT1H, got"
                                + " 'never'");
    }

    /** A path the file system cannot name was an InvalidPathException without the key. */
    @Test
    void aPathThatCannotBeIsRefusedNamingItsKey() {
        assertThat(refusal("transport.spool.dir", "a\0b"))
                .isEqualTo("transport.spool.dir must be a path, got 'a\0b'");
    }

    @Test
    void valuesOutOfRangeAreRefusedWithTheRange() {
        assertThat(refusal("transport.queue.capacity", "0"))
                .isEqualTo("transport.queue.capacity must be in [1, 1000000], got 0");
        assertThat(refusal("reports.per.day.max", "1000001"))
                .isEqualTo("reports.per.day.max must be in [1, 1000000], got 1000001");
        assertThat(refusal("paths.report.max.bytes", "8"))
                .isEqualTo("paths.report.max.bytes must be in [16, 1048576], got 8");
        assertThat(refusal("checkpoint.interval", "PT0.5S"))
                .isEqualTo("checkpoint.interval must be 'none' or a duration >= PT1S, got PT0.5S");
        assertThat(refusal("state.lock.wait", "-PT1S"))
                .isEqualTo("state.lock.wait must be in [PT0S, PT1M], got PT-1S");
        assertThat(refusal("privacy.budget.period", "PT0S"))
                .isEqualTo("privacy.budget.period must be at least 1 s, got PT0S");
        assertThat(refusal("privacy.budget", "-1"))
                .isEqualTo("privacy.budget must be a number > 0, ln(x) or none, got -1.0");
        assertThat(refusal("transport.kafka.timeout", "PT2H"))
                .isEqualTo("transport.kafka.timeout must be in [PT0.1S, PT1H], got PT2H");
        assertThat(refusal("transport.spool.max.bytes", "0"))
                .isEqualTo("transport.spool.max.bytes must be in [1, 2^40], got 0");
        assertThat(refusal("method.count", "1"))
                .isEqualTo("method.count must be >= 2 when privacy.mode=user-level");
    }

    @Test
    void missingValuesAreRefusedSayingWhatIsRequired() {
        Properties noApp = minimal();
        noApp.remove("app.version");
        assertThatThrownBy(() -> ClientConfig.fromProperties(noApp))
                .hasMessage("app.version is required: a non-empty 'app:version'");
        Properties noMethods = minimal();
        noMethods.remove("method.count");
        assertThatThrownBy(() -> ClientConfig.fromProperties(noMethods))
                .hasMessage("method.count is required: an integer in [1, 10000000]");
        assertThat(refusal("transport.kafka.topic", " "))
                .isEqualTo("transport.kafka.topic is required: a topic name");
        assertThat(refusal("privacy.config.id", ""))
                .isEqualTo("privacy.config.id is required: a non-empty id");
        Properties epsilonT = minimal();
        epsilonT.setProperty("privacy.mode", "epsilon_t");
        assertThatThrownBy(() -> ClientConfig.fromProperties(epsilonT))
                .hasMessage("privacy.k is required: an integer in [1, 100000000]");
        epsilonT.setProperty("privacy.k", "50");
        assertThatThrownBy(() -> ClientConfig.fromProperties(epsilonT))
                .hasMessage("privacy.t is required: an integer in [1, 50]");
        epsilonT.setProperty("privacy.t", "5");
        assertThat(ClientConfig.fromProperties(epsilonT).privacy().t()).isEqualTo(5);
    }

    @Test
    void unsetSettingsHaveTheDocumentedDefaults() {
        ClientConfig config = ClientConfig.fromProperties(minimal());
        assertThat(config.deviceId()).isEmpty();
        assertThat(config.configId()).isEqualTo("default");
        assertThat(config.epochSpan()).isEmpty();
        assertThat(config.endEpochAtExit()).isFalse();
        assertThat(config.checkpointInterval()).contains(Duration.ofMinutes(1));
        assertThat(config.reportsPerDayCap()).isEqualTo(24);
        assertThat(config.stateLockWait()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.budget()).isEqualTo(Math.log(9));
        assertThat(config.budgetPeriod()).isEqualTo(Duration.ofDays(1));
        assertThat(config.transport()).isEqualTo(ClientConfig.TransportKind.FILE);
        assertThat(config.reportFile()).isEqualTo(dir.resolve("reports.fpr"));
        assertThat(config.kafkaBootstrapServers()).isNull();
        assertThat(config.kafkaClientProperties()).isEmpty();
        assertThat(config.kafkaTopic()).isEqualTo("fieldprof.reports.frequency");
        assertThat(config.kafkaTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.exitWait()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.spoolDir()).isEqualTo(dir.resolve("spool"));
        assertThat(config.spoolMaxBytes()).isEqualTo(16L << 20);
        assertThat(config.queueCapacity()).isEqualTo(1024);
        assertThat(config.pathsEnabled()).isFalse();
        assertThat(config.pathsDebug()).isFalse();
        assertThat(config.pathReportsTopic()).isEqualTo("fieldprof.reports.paths");
        assertThat(config.edgeModelsTopic()).isEqualTo("fieldprof.models.edges");
        assertThat(config.pathMaxReportBytes()).isEqualTo(16384);
    }

    @Test
    void wordsAreTakenInAnyCaseAndRunEndsTheEpochAtExitUnlessSaidOtherwise() {
        Properties p = minimal();
        p.setProperty("checkpoint.interval", "NONE");
        p.setProperty("epoch.span", "Run");
        p.setProperty("privacy.budget", "None");
        ClientConfig run = ClientConfig.fromProperties(p);
        assertThat(run.checkpointInterval()).isEmpty();
        assertThat(run.epochSpan()).isEmpty();
        assertThat(run.endEpochAtExit()).isTrue();
        assertThat(run.budget()).isEqualTo(Double.POSITIVE_INFINITY);
        p.setProperty("epoch.end.at.exit", "FALSE");
        assertThat(ClientConfig.fromProperties(p).endEpochAtExit()).isFalse();
        p.setProperty("epoch.span", "MANUAL");
        p.setProperty("epoch.end.at.exit", " true ");
        assertThat(ClientConfig.fromProperties(p).endEpochAtExit()).isTrue();
        assertThat(ClientConfig.fromProperties(p).epochSpan()).isEmpty();
    }

    @Test
    void theBuilderChecksWhatItIsGivenAsPropertiesAreChecked() {
        ClientConfig.Builder b =
                ClientConfig.builder().appVersion(" demo:2 ").methodCount(10).stateDir(dir);
        assertThat(b.build().appVersion()).isEqualTo("demo:2");
        assertThatThrownBy(() -> b.queueCapacity(0).build())
                .hasMessage("transport.queue.capacity must be in [1, 1000000], got 0");
        b.queueCapacity(10);
        assertThatThrownBy(() -> b.exitWait(Duration.ofMinutes(2)).build())
                .hasMessage("transport.exit.wait must be in [PT0S, PT1M], got PT2M");
        b.exitWait(Duration.ZERO);
        assertThatThrownBy(() -> b.transport(null)).hasMessage("transport must not be null");
        assertThatThrownBy(() -> b.transport(ClientConfig.TransportKind.KAFKA).build())
                .hasMessage(
                        "transport.kafka.bootstrap.servers is required: host:port[,host:port...]"
                                + " when transport=kafka");
        assertThat(b.kafka("k:9092", " t ").build().kafkaTopic()).isEqualTo("t");
    }
}
