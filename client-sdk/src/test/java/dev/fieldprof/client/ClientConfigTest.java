package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientConfigTest {
    @TempDir Path dir;

    private Properties valid() {
        Properties p = new Properties();
        p.setProperty("app.version", "demo:1.0");
        p.setProperty("method.count", "120");
        p.setProperty("privacy.config.id", "cfg-1");
        p.setProperty("privacy.epsilon", "ln(9)");
        p.setProperty("privacy.t", "2");
        p.setProperty("privacy.k", "1000");
        p.setProperty("privacy.mode", "epsilon-t");
        p.setProperty("state.dir", dir.toString());
        return p;
    }

    @Test
    void theBuilderDefaultsToTheCliPrivacyOneUserLevelReportOfLn9ADay() {
        ClientConfig config =
                ClientConfig.builder().appVersion("a:1").methodCount(10).stateDir(dir).build();
        assertThat(config.privacy().mode()).isEqualTo(PrivacyMode.USER_LEVEL);
        assertThat(config.privacy().epsilon()).isEqualTo(Math.log(9));
        assertThat(config.privacy().t()).isEqualTo(1);
        assertThat(config.privacy().k()).isEqualTo(1);
        assertThat(config.privacy().userLevelEpsilonPerReport()).isEqualTo(Math.log(9));
        assertThat(config.budget()).isEqualTo(Math.log(9));
        assertThat(config.budgetPeriod()).isEqualTo(Duration.ofDays(1));
        assertThat(config.configId()).isEqualTo("default");
    }

    @Test
    void aClientPropertiesWithoutABudgetHasTheDefaultOneAndNoneOnlyByName() {
        Properties p = new Properties();
        p.setProperty("app.version", "demo:1.0");
        p.setProperty("method.count", "120");
        p.setProperty("state.dir", dir.toString());
        ClientConfig defaults = ClientConfig.fromProperties(p);
        assertThat(defaults.privacy().mode()).isEqualTo(PrivacyMode.USER_LEVEL);
        assertThat(defaults.privacy().epsilon()).isEqualTo(Math.log(9));
        assertThat(defaults.budget()).isEqualTo(Math.log(9));
        assertThat(defaults.budgetPeriod()).isEqualTo(Duration.ofDays(1));
        p.setProperty("privacy.budget", "none");
        assertThat(ClientConfig.fromProperties(p).budget()).isEqualTo(Double.POSITIVE_INFINITY);
        p.setProperty("privacy.budget", "");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("privacy.budget must be a number > 0, ln(x) or none, got ''");
        // The epsilon-t mode's t and k are refused without the mode named.
        p.remove("privacy.budget");
        p.setProperty("privacy.t", "1");
        p.setProperty("privacy.k", "50");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage(
                        "privacy.k and privacy.t must be 1 when privacy.mode=user-level (the"
                                + " default; privacy.mode=epsilon-t for the epsilon-t mode), got"
                                + " k=50, t=1");
    }

    @Test
    void takesAModelsPrivacyConfigurationInItsMode() {
        PrivacyConfig userLevel =
                PrivacyConfig.newBuilder()
                        .setConfigId("u")
                        .setEpsilon(Math.log(3))
                        .setT(1)
                        .setK(1)
                        .setMode(PrivacyMode.USER_LEVEL)
                        .build();
        PrivacyConfig epsilonT =
                PrivacyConfig.newBuilder(userLevel)
                        .setConfigId("e")
                        .setT(2)
                        .setK(40)
                        .setMode(PrivacyMode.EPSILON_T)
                        .build();
        ClientConfig.Builder base =
                ClientConfig.builder().appVersion("a:1").methodCount(10).stateDir(dir);
        PrivacyParameters user = base.privacy(userLevel).build().privacy();
        assertThat(user.mode()).isEqualTo(PrivacyMode.USER_LEVEL);
        assertThat(user.epsilon()).isEqualTo(Math.log(3));
        assertThat(user.k()).isEqualTo(1);
        ClientConfig event = base.privacy(epsilonT).build();
        assertThat(event.configId()).isEqualTo("e");
        assertThat(event.privacy().mode()).isEqualTo(PrivacyMode.EPSILON_T);
        assertThat(event.privacy().t()).isEqualTo(2);
        assertThat(event.privacy().k()).isEqualTo(40);
    }

    @Test
    void readsTheInstrumenterKeys() {
        ClientConfig config = ClientConfig.fromProperties(valid());
        assertThat(config.appVersion()).isEqualTo("demo:1.0");
        assertThat(config.methodCount()).isEqualTo(120);
        assertThat(config.configId()).isEqualTo("cfg-1");
        assertThat(config.privacy().epsilon()).isEqualTo(Math.log(9));
        assertThat(config.privacy().t()).isEqualTo(2);
        assertThat(config.privacy().k()).isEqualTo(1000);
        assertThat(config.epochSpan()).isEmpty();
        assertThat(config.transport()).isEqualTo(ClientConfig.TransportKind.FILE);
        assertThat(config.reportFile()).isEqualTo(dir.resolve("reports.fpr"));
    }

    @Test
    void namesSettingAndRangeInEveryMessage() {
        Properties p = valid();
        p.setProperty("privacy.t", "1001");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("privacy.t must be in [1, 1000], got 1001");
        p.setProperty("privacy.t", "1");
        p.setProperty("method.count", "0");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("method.count must be in [1, 10000000], got 0");
        p.setProperty("method.count", "ten");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("method.count must be an integer, got 'ten'");
        p.setProperty("method.count", "10");
        p.setProperty("epoch.span", "PT0.5S");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("epoch.span must be 'manual', 'run' or a duration >= PT1S, got PT0.5S");
        p.setProperty("epoch.span", "hourly");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("epoch.span must be an ISO-8601 duration such as PT1H, got 'hourly'");
        p.setProperty("epoch.span", "PT1H");
        p.setProperty("transport", "kafka");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage(
                        "transport.kafka.bootstrap.servers is required: host:port[,host:port...]"
                                + " when transport=kafka");
        p.setProperty("transport", "carrier-pigeon");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("transport must be one of none, file, kafka, got 'carrier-pigeon'");
        p.remove("transport");
        p.setProperty("privacy.epsilon", "-1");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("privacy.epsilon must be finite and > 0, got -1.0");
        p.remove("privacy.epsilon");
        assertThat(ClientConfig.fromProperties(p).privacy().epsilon())
                .as("the default epsilon, ln 9")
                .isEqualTo(Math.log(9));
    }

    @Test
    void systemPropertiesOverrideTheClasspathResource() throws Exception {
        Path root = dir.resolve("cp");
        Path resource = root.resolve(ClientConfig.RESOURCE);
        Files.createDirectories(resource.getParent());
        try (var out = Files.newOutputStream(resource)) {
            valid().store(out, null);
        }
        String key = ClientConfig.SYSTEM_PREFIX + ClientConfig.KEY_EPOCH_SPAN;
        System.setProperty(key, "PT2H");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
            ClientConfig config =
                    ClientConfig.fromClasspathAndSystemProperties(loader).orElseThrow();
            assertThat(config.appVersion()).isEqualTo("demo:1.0");
            assertThat(config.epochSpan()).contains(Duration.ofHours(2));
        } finally {
            System.clearProperty(key);
        }
    }

    @Test
    void runMeansOneEpochPerProgramRunAndIsTheLazyDefault() throws Exception {
        Properties p = valid();
        p.setProperty("epoch.span", "run");
        ClientConfig run = ClientConfig.fromProperties(p);
        assertThat(run.endEpochAtExit()).isTrue();
        assertThat(run.epochSpan()).isEmpty();
        assertThat(ClientConfig.fromProperties(valid()).endEpochAtExit()).isFalse();
        Path root = dir.resolve("cp2");
        Path resource = root.resolve(ClientConfig.RESOURCE);
        Files.createDirectories(resource.getParent());
        try (var out = Files.newOutputStream(resource)) {
            valid().store(out, null);
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
            assertThat(
                            ClientConfig.fromClasspathAndSystemProperties(loader)
                                    .orElseThrow()
                                    .endEpochAtExit())
                    .isTrue();
        }
    }

    @Test
    void isEmptyWithoutResourceOrAppVersion() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[0], null)) {
            assertThat(ClientConfig.fromClasspathAndSystemProperties(loader)).isEmpty();
        }
    }

    @Test
    void theExitWaitIsTwoSecondsUnlessSetWithinAMinute() {
        assertThat(ClientConfig.fromProperties(valid()).exitWait())
                .isEqualTo(Duration.ofSeconds(2));
        Properties p = valid();
        p.setProperty("transport.exit.wait", "PT20S");
        assertThat(ClientConfig.fromProperties(p).exitWait()).isEqualTo(Duration.ofSeconds(20));
        p.setProperty("transport.exit.wait", "PT2M");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("transport.exit.wait must be in [PT0S, PT1M], got PT2M");
    }

    @Test
    void toBuilderRoundTrips() {
        ClientConfig config = ClientConfig.fromProperties(valid());
        ClientConfig copy = config.toBuilder().build();
        assertThat(copy.toString()).isEqualTo(config.toString());
    }

    @Test
    void passesKafkaClientPropertiesThroughOverTheConfigFile() throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(
                file,
                "security.protocol=SASL_SSL\n"
                        + "sasl.mechanism=SCRAM-SHA-256\n"
                        + "bootstrap.servers=ignored:1\n");
        Properties p = valid();
        p.setProperty("transport", "kafka");
        p.setProperty("transport.kafka.bootstrap.servers", "broker:9093");
        p.setProperty("transport.kafka.config.file", file.toString());
        p.setProperty("transport.kafka.sasl.mechanism", "SCRAM-SHA-512");
        p.setProperty("transport.kafka.timeout", "PT5S");
        ClientConfig config = ClientConfig.fromProperties(p);
        assertThat(config.kafkaClientProperties())
                .containsExactly(
                        java.util.Map.entry("sasl.mechanism", "SCRAM-SHA-512"),
                        java.util.Map.entry("security.protocol", "SASL_SSL"));
        assertThat(config.kafkaBootstrapServers()).isEqualTo("broker:9093");
        assertThat(config.toBuilder().build().kafkaClientProperties())
                .isEqualTo(config.kafkaClientProperties());
        Properties producer =
                dev.fieldprof.client.transport.kafka.DeviceProducers.properties(
                        config.kafkaBootstrapServers(),
                        config.kafkaTimeout(),
                        "device",
                        config.kafkaClientProperties());
        assertThat(producer.getProperty("security.protocol")).isEqualTo("SASL_SSL");
        assertThat(producer.getProperty("bootstrap.servers")).isEqualTo("broker:9093");
        assertThat(producer.getProperty("acks")).isEqualTo("all");
    }

    @Test
    void namesAnUnreadableKafkaConfigFileWithoutItsContents() {
        Properties p = valid();
        p.setProperty("transport.kafka.config.file", dir.resolve("missing.properties").toString());
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "transport.kafka.config.file must be a readable properties file, cannot"
                                + " read "
                                + dir.resolve("missing.properties")
                                + " (NoSuchFileException)");
    }
}
