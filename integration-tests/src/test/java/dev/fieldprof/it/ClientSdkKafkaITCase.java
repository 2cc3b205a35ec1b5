package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.client.transport.kafka.KafkaReportTransport;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
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
 * The device SDK against a real broker: a runtime configured with {@code transport=kafka} delivers
 * its reports keyed by device id as codec bytes, and reports spooled while the broker was
 * unreachable are delivered, in order, once it answers.
 */
class ClientSdkKafkaITCase {
    private static final RecordCodec<FrequencyReport> CODEC = RecordCodec.of(FrequencyReport.class);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder().partitions(1).taskSlots(1).build();

    @TempDir Path dir;

    @Test
    void runtimeReportsReachTheTopicKeyedByDevice() throws Exception {
        String topic = RUNTIME.createRandomTopic(1, false);
        ClientConfig config =
                ClientConfig.builder()
                        .appVersion("it:1.0")
                        .deviceId("it-device")
                        .methodCount(40)
                        .privacy("default", Math.log(9), 2, 100)
                        // Two reports of 50 ln 9 each: no budget, by name.
                        .noBudget()
                        .stateDir(dir.resolve("state"))
                        .transport(ClientConfig.TransportKind.KAFKA)
                        .kafka(RUNTIME.bootstrapServers(), topic)
                        .kafkaTimeout(Duration.ofSeconds(20))
                        .build();
        List<String> reportIds = new ArrayList<>();
        TransportCounters counters;
        try (DeviceRuntime runtime = DeviceRuntime.start(config)) {
            for (int epoch = 0; epoch < 2; epoch++) {
                for (int i = 0; i < 500; i++) {
                    runtime.record(i % 40);
                }
                DeviceRuntime.EpochResult result = runtime.endEpoch();
                assertThat(result.outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
                reportIds.add(result.reportId().orElseThrow());
            }
            assertThat(runtime.transport().flush(Duration.ofSeconds(60))).isTrue();
            counters = runtime.transportCounters();
        }
        List<ConsumerRecord<String, byte[]>> records =
                RUNTIME.drainRecords(topic, new StringDeserializer(), new ByteArrayDeserializer());
        assertThat(records).hasSize(2);
        for (int i = 0; i < 2; i++) {
            FrequencyReport report = CODEC.decode(records.get(i).value());
            assertThat(records.get(i).key()).isEqualTo("it-device");
            assertThat(report.getReportId()).isEqualTo(reportIds.get(i));
            assertThat(report.getK()).isEqualTo(100);
            assertThat(report.getCounts())
                    .hasSize(40)
                    .allSatisfy(z -> assertThat(z).isBetween(0, 100));
        }
        assertThat(counters.droppedTotal()).isZero();
    }

    @Test
    void spooledReportsAreDeliveredInOrderOnceTheBrokerAnswers() throws Exception {
        String topic = RUNTIME.createRandomTopic(1, false);
        Path spool = dir.resolve("spool");
        try (KafkaReportTransport offline =
                new KafkaReportTransport(
                        "127.0.0.1:1", topic, Duration.ofMillis(300), spool, 1 << 20, 16)) {
            for (int i = 0; i < 3; i++) {
                offline.submit(report(i));
            }
            assertThat(offline.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(offline.spooled()).isEqualTo(3);
        }
        try (KafkaReportTransport online =
                new KafkaReportTransport(
                        RUNTIME.bootstrapServers(),
                        topic,
                        Duration.ofSeconds(20),
                        spool,
                        1 << 20,
                        16)) {
            online.submit(report(3));
            assertThat(online.flush(Duration.ofSeconds(60))).isTrue();
            assertThat(online.spooled()).isZero();
            assertThat(online.counters().sent()).isEqualTo(4);
        }
        List<String> ids = new ArrayList<>();
        for (byte[] value : RUNTIME.drain(topic, new ByteArrayDeserializer())) {
            ids.add(CODEC.decode(value).getReportId());
        }
        assertThat(ids).containsExactly("r0", "r1", "r2", "r3");
    }

    private static FrequencyReport report(int i) {
        return FrequencyReport.newBuilder()
                .setReportId("r" + i)
                .setDeviceId("spool-device")
                .setAppVersion("it:1.0")
                .setConfigId("default")
                .setK(3)
                .setCreatedAtMillis(Instant.ofEpochMilli(1_700_000_000_000L + i))
                .setCounts(List.of(1, 2, 0))
                .build();
    }
}
