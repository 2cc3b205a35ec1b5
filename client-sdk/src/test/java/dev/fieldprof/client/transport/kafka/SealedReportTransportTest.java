package dev.fieldprof.client.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.Reports;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.SealedReport;
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.SealingException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shuffled mode on the device: a report of the shuffled configuration leaves only as a {@link
 * SealedReport} on the shuffler's topic, whose payload the analyst's private key opens to the
 * randomized report without identity; without a usable public keyset nothing leaves, and the drop
 * is counted.
 */
class SealedReportTransportTest {
    private static final String SHUFFLER_TOPIC = "shuffler-input";
    private static final RecordCodec<SealedReport> SEALED = RecordCodec.of(SealedReport.class);
    private static final RecordCodec<FrequencyReport> REPORTS =
            RecordCodec.of(FrequencyReport.class);

    @TempDir Path dir;

    private final MockProducer<String, byte[]> broker =
            new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());

    private KafkaReportTransport transport(String shuffledConfigId, Path publicKeyset) {
        return new KafkaReportTransport(
                settings("localhost:9092", Duration.ofMillis(500))
                        .shuffled(shuffledConfigId, publicKeyset, SHUFFLER_TOPIC)
                        .build(),
                (Properties p) -> (Producer<String, byte[]>) broker);
    }

    /** The settings of these tests: topic "reports", a 1 MiB spool, a queue of 64. */
    private KafkaTransportSettings.Builder settings(String bootstrap, Duration timeout) {
        return KafkaTransportSettings.builder(bootstrap, dir.resolve("spool"))
                .topic("reports")
                .timeout(timeout)
                .spoolMaxBytes(1 << 20)
                .queueCapacity(64);
    }

    private static FrequencyReport report(int i) {
        return FrequencyReport.newBuilder(Reports.report(i, 6))
                .setSequence(40 + i)
                .setSubset(List.of(1, 4))
                .setEpsilon(Math.log(9))
                .setT(1)
                .build();
    }

    @Test
    void aShuffledReportLeavesSealedWithoutIdentityAndOpensWithThePrivateKey() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        Path publicKeyset =
                Files.writeString(dir.resolve("analyst-public.json"), keys.publicKeysetJson());
        FrequencyReport made = report(2);
        try (KafkaReportTransport transport = transport("default", publicKeyset)) {
            transport.submit(made);
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(transport.counters().sent()).isEqualTo(1);
            assertThat(transport.counters().droppedTotal()).isZero();
            assertThat(transport.sealing().flatMap(SealedReports::keyId))
                    .contains(keys.primaryKeyId());
        }
        assertThat(broker.history()).hasSize(1);
        ProducerRecord<String, byte[]> record = broker.history().get(0);
        assertThat(record.topic()).isEqualTo(SHUFFLER_TOPIC);
        assertThat(record.key()).isEqualTo("device-2");

        SealedReport sealed = SEALED.decode(record.value());
        assertThat(sealed.getDeviceId()).isEqualTo("device-2");
        assertThat(sealed.getAppVersion()).isEqualTo("demo:1.0");
        assertThat(sealed.getConfigId()).isEqualTo("default");
        assertThat(sealed.getSequence()).isEqualTo(42L);

        byte[] payload = bytes(sealed.getSealed());
        FrequencyReport opened = REPORTS.decode(keys.opener().open(payload, "demo:1.0", "default"));
        assertThat(opened.getDeviceId()).isEmpty();
        assertThat(opened.getSequence()).isZero();
        assertThat(opened.getCreatedAtMillis()).isEqualTo(Instant.EPOCH);
        assertThat(opened.getReportId()).isEqualTo("report-2");
        assertThat(opened.getSubset()).containsExactly(1, 4);
        assertThat(opened.getCounts()).isEqualTo(made.getCounts());
        assertThat(opened.getEpsilon()).isEqualTo(Math.log(9));
        assertThat(opened.getAppVersion()).isEqualTo("demo:1.0");
        assertThat(opened.getConfigId()).isEqualTo("default");
        // Bound to its (app version, configuration): opened as another's, it is refused.
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> keys.opener().open(payload, "demo:1.0", "other"))
                .isInstanceOf(SealingException.class);
    }

    @Test
    void reportsOfAnotherConfigurationGoAsTheyAreToTheReportsTopic() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        Path publicKeyset =
                Files.writeString(dir.resolve("analyst-public.json"), keys.publicKeysetJson());
        try (KafkaReportTransport transport = transport("shuffled", publicKeyset)) {
            transport.submit(report(0)); // configId "default": local-only
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
        }
        assertThat(broker.history()).hasSize(1);
        assertThat(broker.history().get(0).topic()).isEqualTo("reports");
        assertThat(REPORTS.decode(broker.history().get(0).value())).isEqualTo(report(0));
    }

    @Test
    void withoutAPublicKeysetNothingIsSentAndTheDropsAreCounted() throws Exception {
        TransportCounters counters;
        try (KafkaReportTransport transport = transport("default", null)) {
            for (int i = 0; i < 3; i++) {
                transport.submit(report(i));
            }
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            counters = transport.counters();
            assertThat(transport.sealing().flatMap(SealedReports::problem))
                    .contains("no analyst public keyset (shuffler.analyst.public.keyset) is set");
        }
        assertThat(broker.history()).isEmpty();
        assertThat(counters.sent()).isZero();
        assertThat(counters.dropped(DropReason.UNSEALABLE)).isEqualTo(3);
        assertThat(counters.droppedTotal()).isEqualTo(3);
    }

    @Test
    void aPrivateKeysetGivenAsThePublicOneIsRefusedAndNothingIsSent() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        Path mistaken =
                Files.writeString(dir.resolve("analyst-private.json"), keys.privateKeysetJson());
        TransportCounters counters;
        try (KafkaReportTransport transport = transport("default", mistaken)) {
            transport.submit(report(1));
            transport.submit(report(2));
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            counters = transport.counters();
            assertThat(transport.sealing().flatMap(SealedReports::problem).orElseThrow())
                    .startsWith("not an analyst public keyset (Tink JSON, HPKE, no secret key)");
        }
        assertThat(broker.history()).isEmpty();
        assertThat(counters.dropped(DropReason.UNSEALABLE)).isEqualTo(2);
        assertThat(counters.sent()).isZero();
    }

    @Test
    void aKeysetFileThatIsNotOneIsRefused() throws Exception {
        Path garbage =
                Files.writeString(dir.resolve("analyst-public.json"), "{\"not\": \"a keyset\"}");
        try (KafkaReportTransport transport = transport("default", garbage)) {
            transport.submit(report(1));
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(transport.counters().dropped(DropReason.UNSEALABLE)).isEqualTo(1);
        }
        assertThat(broker.history()).isEmpty();
    }

    /** Spooled while the broker was away, a shuffled report is sealed as the spool drains. */
    @Test
    void aSpooledShuffledReportIsSealedWhenTheSpoolDrains() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        Path publicKeyset =
                Files.writeString(dir.resolve("analyst-public.json"), keys.publicKeysetJson());
        try (KafkaReportTransport dead =
                new KafkaReportTransport(
                        settings("127.0.0.1:1", Duration.ofMillis(200))
                                .shuffled("default", publicKeyset, SHUFFLER_TOPIC)
                                .build())) {
            dead.submit(report(0));
            dead.submit(report(1));
            assertThat(dead.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(dead.spooled()).isEqualTo(2);
        }
        try (KafkaReportTransport transport = transport("default", publicKeyset)) {
            transport.submit(report(2));
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(transport.counters().sent()).isEqualTo(3);
        }
        assertThat(broker.history())
                .extracting(ProducerRecord::topic)
                .containsExactly(SHUFFLER_TOPIC, SHUFFLER_TOPIC, SHUFFLER_TOPIC);
        assertThat(broker.history())
                .extracting(r -> SEALED.decode(r.value()).getSequence())
                .containsExactly(40L, 41L, 42L);
        for (ProducerRecord<String, byte[]> record : broker.history()) {
            FrequencyReport opened =
                    REPORTS.decode(
                            keys.opener()
                                    .open(
                                            bytes(SEALED.decode(record.value()).getSealed()),
                                            "demo:1.0",
                                            "default"));
            assertThat(opened.getDeviceId()).isEmpty();
            assertThat(opened.getSequence()).isZero();
        }
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
