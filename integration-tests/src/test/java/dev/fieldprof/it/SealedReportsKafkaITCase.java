package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceMetrics;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.SealedReport;
import dev.fieldprof.sealing.AnalystKeys;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shuffled mode's device against a real broker: a runtime whose configuration has shuffler
 * terms sends each report as a {@link SealedReport} to the shuffler's topic, keyed by device id,
 * whose payload the analyst's private key opens to the report without identity, and sends nothing
 * to the reports topic; without the analyst's public keyset it sends nothing at all and counts why.
 */
class SealedReportsKafkaITCase {
    private static final RecordCodec<SealedReport> SEALED = RecordCodec.of(SealedReport.class);
    private static final RecordCodec<FrequencyReport> REPORTS =
            RecordCodec.of(FrequencyReport.class);
    private static final int METHODS = 40;

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder().partitions(1).taskSlots(1).build();

    @TempDir Path dir;

    private ClientConfig.Builder device(String app, String reports, String shuffler) {
        return ClientConfig.builder()
                .appVersion(app)
                .deviceId("sealing-device")
                .methodCount(METHODS)
                .userLevelPrivacy("shuffled", 4.0)
                .shuffled(10_000, 1e-6)
                .noBudget()
                .stateDir(dir.resolve("state-" + app.replace(':', '-')))
                .transport(ClientConfig.TransportKind.KAFKA)
                .kafka(RUNTIME.bootstrapServers(), reports)
                .shufflerTopic(shuffler)
                .kafkaTimeout(Duration.ofSeconds(20));
    }

    @Test
    void reportsReachTheShufflersTopicSealedAndOpenWithoutIdentity() throws Exception {
        String reports = RUNTIME.createRandomTopic(1, false);
        String shuffler = RUNTIME.createRandomTopic(1, false);
        AnalystKeys keys = AnalystKeys.generate();
        Path publicKeyset =
                Files.writeString(dir.resolve("analyst-public.json"), keys.publicKeysetJson());
        List<String> reportIds = new ArrayList<>();
        TransportCounters counters;
        try (DeviceRuntime runtime =
                DeviceRuntime.start(
                        device("sealed-it:1.0", reports, shuffler)
                                .analystPublicKeyset(publicKeyset)
                                .build())) {
            for (int epoch = 0; epoch < 2; epoch++) {
                for (int i = 0; i < 50; i++) {
                    runtime.record((i + epoch) % METHODS);
                }
                DeviceRuntime.EpochResult result = runtime.endEpoch();
                assertThat(result.outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
                reportIds.add(result.reportId().orElseThrow());
            }
            assertThat(runtime.transport().flush(Duration.ofSeconds(60))).isTrue();
            counters = runtime.transportCounters();
        }
        assertThat(counters.sent()).isEqualTo(2);
        assertThat(counters.droppedTotal()).isZero();

        List<ConsumerRecord<String, byte[]>> records =
                RUNTIME.drainRecords(
                        shuffler, new StringDeserializer(), new ByteArrayDeserializer());
        assertThat(records).hasSize(2);
        for (int i = 0; i < 2; i++) {
            assertThat(records.get(i).key()).isEqualTo("sealing-device");
            SealedReport sealed = SEALED.decode(records.get(i).value());
            assertThat(sealed.getDeviceId()).isEqualTo("sealing-device");
            assertThat(sealed.getAppVersion()).isEqualTo("sealed-it:1.0");
            assertThat(sealed.getConfigId()).isEqualTo("shuffled");
            assertThat(sealed.getSequence()).isEqualTo(i + 1L);
            FrequencyReport opened =
                    REPORTS.decode(
                            keys.opener()
                                    .open(bytes(sealed.getSealed()), "sealed-it:1.0", "shuffled"));
            assertThat(opened.getDeviceId()).isEmpty();
            assertThat(opened.getSequence()).isZero();
            assertThat(opened.getCreatedAtMillis()).isEqualTo(Instant.EPOCH);
            assertThat(opened.getReportId()).isEqualTo(reportIds.get(i));
            assertThat(opened.getEpsilon()).isEqualTo(4.0);
            assertThat(opened.getK()).isEqualTo(1);
        }
        assertThat(RUNTIME.drain(reports, new ByteArrayDeserializer()))
                .as("nothing in the clear on the reports topic")
                .isEmpty();
    }

    @Test
    void withoutThePublicKeysetNothingLeavesAndTheDropIsCounted() throws Exception {
        String reports = RUNTIME.createRandomTopic(1, false);
        String shuffler = RUNTIME.createRandomTopic(1, false);
        String app = "unsealable-it:1.0";
        TransportCounters counters;
        long unsealable;
        try (DeviceRuntime runtime = DeviceRuntime.start(device(app, reports, shuffler).build())) {
            for (int i = 0; i < 50; i++) {
                runtime.record(i % METHODS);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
            assertThat(runtime.transport().flush(Duration.ofSeconds(60))).isTrue();
            counters = runtime.transportCounters();
            unsealable =
                    (Long)
                            ManagementFactory.getPlatformMBeanServer()
                                    .getAttribute(DeviceMetrics.name(app), "ReportsUnsealable");
        }
        assertThat(counters.sent()).isZero();
        assertThat(counters.dropped(DropReason.UNSEALABLE)).isEqualTo(1);
        assertThat(unsealable).isEqualTo(1);
        assertThat(RUNTIME.drain(shuffler, new ByteArrayDeserializer())).isEmpty();
        assertThat(RUNTIME.drain(reports, new ByteArrayDeserializer())).isEmpty();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
