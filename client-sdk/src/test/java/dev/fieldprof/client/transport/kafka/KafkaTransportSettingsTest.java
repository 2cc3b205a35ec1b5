package dev.fieldprof.client.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Kafka transport's settings: their defaults, the range of each, and what they print. */
class KafkaTransportSettingsTest {
    private static final Path SPOOL = Path.of("spool");

    private static KafkaTransportSettings.Builder builder() {
        return KafkaTransportSettings.builder("broker:9092", SPOOL);
    }

    @Test
    void defaultsToTheClientConfigsDefaults() {
        KafkaTransportSettings settings = builder().build();
        assertThat(settings.bootstrapServers()).isEqualTo("broker:9092");
        assertThat(settings.spoolDir()).isEqualTo(SPOOL);
        assertThat(settings.topic()).isEqualTo(Topics.FREQUENCY_REPORTS);
        assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.spoolMaxBytes()).isEqualTo(16L << 20);
        assertThat(settings.queueCapacity()).isEqualTo(1024);
        assertThat(settings.clientProperties()).isEmpty();
        assertThat(settings.connectAtStart()).isTrue();
        assertThat(settings.shuffledConfigId()).isEmpty();
        assertThat(settings.analystPublicKeyset()).isEmpty();
        assertThat(settings.shufflerTopic()).isEmpty();
    }

    @Test
    void rejectsAMissingBootstrapOrSpoolDirectory() {
        assertThatThrownBy(() -> KafkaTransportSettings.builder(" ", SPOOL).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bootstrapServers must be a non-empty host:port list");
        assertThatThrownBy(() -> KafkaTransportSettings.builder(null, SPOOL).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bootstrapServers must be a non-empty host:port list");
        assertThatThrownBy(() -> KafkaTransportSettings.builder("broker:9092", null).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spoolDir must be a directory path, got null");
    }

    @Test
    void rejectsAnEmptyTopic() {
        assertThatThrownBy(() -> builder().topic("").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("topic must be non-empty, got \"\"");
    }

    @Test
    void acceptsTimeoutsFrom100MillisecondsToAnHourOnly() {
        assertThat(builder().timeout(Duration.ofMillis(100)).build().timeout())
                .isEqualTo(Duration.ofMillis(100));
        assertThat(builder().timeout(Duration.ofHours(1)).build().timeout())
                .isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> builder().timeout(Duration.ofMillis(99)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must be in [100 ms, 1 h], got PT0.099S");
        assertThatThrownBy(() -> builder().timeout(Duration.ofHours(1).plusMillis(1)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must be in [100 ms, 1 h], got PT1H0.001S");
        assertThatThrownBy(() -> builder().timeout(null).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must be in [100 ms, 1 h], got null");
    }

    @Test
    void acceptsSpoolCapsFromOneByteTo2To40Only() {
        assertThat(builder().spoolMaxBytes(1).build().spoolMaxBytes()).isEqualTo(1);
        assertThat(builder().spoolMaxBytes(1L << 40).build().spoolMaxBytes()).isEqualTo(1L << 40);
        assertThatThrownBy(() -> builder().spoolMaxBytes(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spoolMaxBytes must be in [1, 2^40], got 0");
        assertThatThrownBy(() -> builder().spoolMaxBytes((1L << 40) + 1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spoolMaxBytes must be in [1, 2^40], got 1099511627777");
    }

    @Test
    void acceptsQueuesFromOneToAMillionReportsOnly() {
        assertThat(builder().queueCapacity(1).build().queueCapacity()).isEqualTo(1);
        assertThat(builder().queueCapacity(1_000_000).build().queueCapacity()).isEqualTo(1_000_000);
        assertThatThrownBy(() -> builder().queueCapacity(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queueCapacity must be in [1, 1000000], got 0");
        assertThatThrownBy(() -> builder().queueCapacity(1_000_001).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queueCapacity must be in [1, 1000000], got 1000001");
    }

    @Test
    void rejectsANullClientPropertyWithoutPrintingAnyValue() {
        Map<String, String> properties = new HashMap<>();
        properties.put("sasl.jaas.config", "password=\"hunter2\"");
        properties.put("security.protocol", null);
        assertThatThrownBy(() -> builder().clientProperties(properties).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "clientProperties must hold no null key or value, got one for key"
                                + " security.protocol");
        assertThatThrownBy(() -> builder().clientProperties(null).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("clientProperties must be a map, got null");
    }

    @Test
    void keepsACopyOfTheClientPropertiesAndPrintsTheirKeysOnly() {
        Map<String, String> properties = new HashMap<>();
        properties.put("sasl.jaas.config", "password=\"hunter2\"");
        KafkaTransportSettings settings = builder().clientProperties(properties).build();
        properties.put("security.protocol", "SSL");
        assertThat(settings.clientProperties())
                .containsExactly(Map.entry("sasl.jaas.config", "password=\"hunter2\""));
        assertThat(settings.toString())
                .isEqualTo(
                        "KafkaTransportSettings[bootstrapServers=broker:9092, topic="
                                + Topics.FREQUENCY_REPORTS
                                + ", timeout=PT30S, spoolDir=spool, spoolMaxBytes=16777216,"
                                + " queueCapacity=1024, clientProperties=[sasl.jaas.config],"
                                + " connectAtStart=true]");
    }

    @Test
    void theShuffledModeNeedsAConfigurationAndATopicButNotAKeyset() {
        KafkaTransportSettings settings = builder().shuffled("default", null, "sealed").build();
        assertThat(settings.shuffledConfigId()).hasValue("default");
        assertThat(settings.analystPublicKeyset()).isEmpty();
        assertThat(settings.shufflerTopic()).hasValue("sealed");
        assertThatThrownBy(() -> builder().shuffled("", null, "sealed").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shuffled configId must be non-empty, got \"\"");
        assertThatThrownBy(() -> builder().shuffled("default", null, null).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shufflerTopic must be non-empty, got null");
    }
}
