package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.client.transport.kafka.KafkaReportTransport;
import dev.fieldprof.client.transport.kafka.KafkaTransportSettings;
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
 * unreachable are delivered, in order, once it answers. A device connects only in a run where a
 * report can be due: a run whose budget is spent and whose spool is empty never contacts the
 * broker, while one whose spool holds an earlier run's report connects at its start and delivers
 * it.
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
                        KafkaTransportSettings.builder("127.0.0.1:1", spool)
                                .topic(topic)
                                .timeout(Duration.ofMillis(300))
                                .spoolMaxBytes(1 << 20)
                                .queueCapacity(16)
                                .build())) {
            for (int i = 0; i < 3; i++) {
                offline.submit(report(i));
            }
            assertThat(offline.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(offline.spooled()).isEqualTo(3);
        }
        try (KafkaReportTransport online =
                new KafkaReportTransport(
                        KafkaTransportSettings.builder(RUNTIME.bootstrapServers(), spool)
                                .topic(topic)
                                .timeout(Duration.ofSeconds(20))
                                .spoolMaxBytes(1 << 20)
                                .queueCapacity(16)
                                .build())) {
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

    @Test
    void aRunThatCannotReportNeverConnectsWhileOneWithASpooledReportDeliversIt() throws Exception {
        String topic = RUNTIME.createRandomTopic(1, false);
        try (CountingProxy proxy = new CountingProxy(RUNTIME.bootstrapServers())) {
            // The default privacy: user-level ln 9 a report, one such report a day.
            ClientConfig online =
                    ClientConfig.builder()
                            .appVersion("quiet-it:1.0")
                            .deviceId("quiet-device")
                            .methodCount(4)
                            .userLevelPrivacy("default", Math.log(9))
                            .budget(Math.log(9), Duration.ofDays(1))
                            .checkpointInterval(null)
                            .stateDir(dir.resolve("state"))
                            .transport(ClientConfig.TransportKind.KAFKA)
                            .kafka(proxy.address(), topic)
                            .kafkaTimeout(Duration.ofSeconds(20))
                            .build();
            ClientConfig offline =
                    online.toBuilder()
                            .kafka("127.0.0.1:1", topic)
                            .kafkaTimeout(Duration.ofSeconds(1))
                            .build();

            // Run 1, offline: the day's one report is made and waits in the spool.
            String reportId;
            try (DeviceRuntime run = DeviceRuntime.start(offline)) {
                run.record(1);
                DeviceRuntime.EpochResult result = run.endEpoch();
                assertThat(result.outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
                reportId = result.reportId().orElseThrow();
                assertThat(run.transport().flush(Duration.ofSeconds(60))).isTrue();
                assertThat(run.transportCounters().spooledNow()).isEqualTo(1);
            }

            // Run 2: the budget is spent, but the spool holds a report: it connects and sends it.
            try (DeviceRuntime run = DeviceRuntime.start(online)) {
                assertThat(run.reportMayBeDueAtStart()).isFalse();
                assertThat(run.startedWithoutConnection()).isFalse();
                assertThat(run.transport().flush(Duration.ofSeconds(60))).isTrue();
                assertThat(run.transportCounters().spooledNow()).isZero();
                assertThat(run.transportCounters().sent()).isEqualTo(1);
                run.record(2);
                assertThat(run.endEpoch().outcome())
                        .isEqualTo(DeviceRuntime.Outcome.SKIPPED_BY_BUDGET);
            }
            int afterRun2 = proxy.accepted();
            assertThat(afterRun2).isPositive();

            // Run 3: the budget is spent and the spool is empty: the broker never hears of it.
            try (DeviceRuntime run = DeviceRuntime.start(online)) {
                assertThat(run.startedWithoutConnection()).isTrue();
                run.record(3);
                assertThat(run.endEpoch().outcome())
                        .isEqualTo(DeviceRuntime.Outcome.SKIPPED_BY_BUDGET);
                // A transport connecting at start does so within moments: give it every chance.
                long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (proxy.accepted() == afterRun2 && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
            }
            assertThat(proxy.accepted()).isEqualTo(afterRun2);

            List<String> ids = new ArrayList<>();
            for (byte[] value : RUNTIME.drain(topic, new ByteArrayDeserializer())) {
                ids.add(CODEC.decode(value).getReportId());
            }
            assertThat(ids).containsExactly(reportId);
        }
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
