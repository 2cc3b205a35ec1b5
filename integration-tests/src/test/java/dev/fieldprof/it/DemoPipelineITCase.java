package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.bytecode.instrument.DeviceBudget;
import dev.fieldprof.cli.demo.DemoPrivacy;
import dev.fieldprof.cli.demo.DemoProgram;
import dev.fieldprof.cli.demo.SimulatedDevices;
import dev.fieldprof.cli.programs.ProgramPublisher;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.client.transport.kafka.KafkaReportTransport;
import dev.fieldprof.client.transport.kafka.KafkaTransportSettings;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.EncodedRecordSerializer;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.jobs.io.RawRecordDeserializer;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo pipeline, bounded, on the real embedded broker and MiniCluster: the sample program is
 * analyzed and instrumented, simulated devices run it and publish randomized reports through the
 * Kafka transport, malformed records are injected, and the estimation job reads everything up to
 * the end offsets. Checks exact facts: report counts per window, estimates summing to one, and
 * every malformed record in the dead letters with its reason.
 */
class DemoPipelineITCase {
    private static final int DEVICES = 3;
    private static final int SESSIONS_PER_DEVICE = 4;

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME = FieldprofRuntimeExtension.builder().build();

    @TempDir Path work;

    @Test
    void estimatesCountEveryReportOnceSumToOneAndDeadLetterMalformedRecords() throws Exception {
        String reports = RUNTIME.createRandomReportTopic(4);
        String programs = RUNTIME.createRandomTopic(1, true);
        String estimates = RUNTIME.createRandomTopic(1, false);
        String deadLetters = RUNTIME.createRandomTopic(1, false);

        DemoProgram program = DemoProgram.prepare(SampleProgram.jar(work), work.resolve("demo"));
        ProgramModel model = program.model();
        int methods = model.getMethods().size();
        int k = model.getPrivacyConfigs().get(0).getK();
        // As the demo does it (DemoRun), with the demo's timeout.
        ProgramPublisher.publish(
                RUNTIME.bootstrapServers(), programs, model, Duration.ofSeconds(30));

        try (ReportTransport transport =
                        new KafkaReportTransport(
                                KafkaTransportSettings.builder(
                                                RUNTIME.bootstrapServers(), work.resolve("spool"))
                                        .topic(reports)
                                        .timeout(Duration.ofSeconds(30))
                                        .spoolMaxBytes(1L << 20)
                                        .queueCapacity(1_000)
                                        .build());
                SimulatedDevices devices =
                        new SimulatedDevices(
                                model,
                                program.instrumentedJar(),
                                work.resolve("devices"),
                                transport,
                                new SimulatedDevices.DeviceUse(
                                        DEVICES,
                                        SESSIONS_PER_DEVICE,
                                        200,
                                        Duration.ZERO,
                                        Duration.ofDays(1)),
                                // The analyzed model's epsilon-t reports (k = 5|V| events each),
                                // with no budget: this test checks the counting, not the budget.
                                new DemoPrivacy(
                                        PrivacyMode.EPSILON_T,
                                        model.getPrivacyConfigs().get(0).getEpsilon(),
                                        DeviceBudget.NONE))) {
            devices.start();
            devices.awaitFinished();
            assertThat(transport.flush(Duration.ofSeconds(60))).isTrue();
            assertThat(devices.failures()).isZero();
            assertThat(devices.reports()).isEqualTo(DEVICES * SESSIONS_PER_DEVICE);
            assertThat(transport.counters().sent()).isEqualTo(DEVICES * SESSIONS_PER_DEVICE);
        }

        Map<String, DeadLetterReason> injected = injectMalformedReports(reports, model, methods, k);

        runJobToEndOfInput(reports, programs, estimates, deadLetters);

        RecordCodec<EstimateWindow> estimateCodec = RecordCodec.of(EstimateWindow.class);
        List<EstimateWindow> windows = new ArrayList<>();
        for (byte[] bytes : RUNTIME.drain(estimates, new ByteArrayDeserializer())) {
            windows.add(estimateCodec.decode(bytes));
        }
        List<EstimateWindow> tumbling = windows.stream().filter(w -> !w.getCumulative()).toList();
        assertThat(tumbling).isNotEmpty();
        assertThat(tumbling.stream().mapToLong(EstimateWindow::getReports).sum())
                .isEqualTo(DEVICES * SESSIONS_PER_DEVICE);
        EstimateWindow last =
                Collections.max(
                        windows.stream().filter(EstimateWindow::getCumulative).toList(),
                        java.util.Comparator.comparing(EstimateWindow::getWindowEndMillis));
        assertThat(last.getReports()).isEqualTo(DEVICES * SESSIONS_PER_DEVICE);
        for (EstimateWindow window : windows) {
            assertThat(window.getAppVersion()).isEqualTo(model.getAppVersion());
            assertThat(window.getK()).isEqualTo(k);
            assertThat(window.getConsistent()).hasSize(methods);
            assertThat(window.getConsistent().stream().mapToDouble(Double::doubleValue).sum())
                    .as("sum of g* in %s", window.getWindowStartMillis())
                    .isCloseTo(1.0, within(1e-9));
            assertThat(window.getConsistent())
                    .allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(0.0));
        }

        RecordCodec<DeadLetter> letterCodec = RecordCodec.of(DeadLetter.class);
        List<DeadLetter> letters = new ArrayList<>();
        for (byte[] bytes : RUNTIME.drain(deadLetters, new ByteArrayDeserializer())) {
            letters.add(letterCodec.decode(bytes));
        }
        assertThat(letters).hasSize(injected.size());
        for (DeadLetter letter : letters) {
            String original = new String(letter.getValue().array(), StandardCharsets.ISO_8859_1);
            assertThat(injected).containsKey(original);
            assertThat(letter.getReasonCode()).isEqualTo(injected.get(original));
            assertThat(letter.getSourceTopic()).isEqualTo(reports);
            assertThat(letter.getReason()).isNotBlank();
        }
    }

    /**
     * Writes one record per failure class; returns original value (as Latin-1) → expected reason.
     */
    private static Map<String, DeadLetterReason> injectMalformedReports(
            String topic, ProgramModel model, int methods, int k) {
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        byte[] garbage = "not an avro record".getBytes(StandardCharsets.UTF_8);
        byte[] wrongLength =
                codec.encode(report(model, "bad-length", Collections.nCopies(methods - 1, 0), k));
        List<Integer> tooLarge = new ArrayList<>(Collections.nCopies(methods, 0));
        tooLarge.set(0, k + 1);
        byte[] countAboveK = codec.encode(report(model, "bad-count", tooLarge, k));
        FrequencyReport unknownConfig =
                report(model, "bad-config", Collections.nCopies(methods, 0), k);
        unknownConfig.setConfigId("no-such-config");
        byte[] wrongConfig = codec.encode(unknownConfig);
        byte[] wrongK =
                codec.encode(report(model, "bad-k", Collections.nCopies(methods, 0), k + 1));

        Map<String, DeadLetterReason> expected = new java.util.HashMap<>();
        expected.put(latin1(garbage), DeadLetterReason.UNDECODABLE);
        expected.put(latin1(wrongLength), DeadLetterReason.WRONG_VECTOR_LENGTH);
        expected.put(latin1(countAboveK), DeadLetterReason.COUNT_OUT_OF_RANGE);
        expected.put(latin1(wrongConfig), DeadLetterReason.UNKNOWN_PRIVACY_CONFIG);
        expected.put(latin1(wrongK), DeadLetterReason.WRONG_TRACE_LENGTH);
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        for (byte[] value : List.of(garbage, wrongLength, countAboveK, wrongConfig, wrongK)) {
            records.add(new ProducerRecord<>(topic, "malicious-device", value));
        }
        RUNTIME.produce(records, new StringSerializer(), new ByteArraySerializer());
        return expected;
    }

    private static FrequencyReport report(
            ProgramModel model, String id, List<Integer> counts, int k) {
        return FrequencyReport.newBuilder()
                .setReportId(id)
                .setDeviceId("malicious-device")
                .setAppVersion(model.getAppVersion())
                .setConfigId(model.getPrivacyConfigs().get(0).getConfigId())
                .setK(k)
                .setCreatedAtMillis(Instant.now())
                .setCounts(counts)
                .build();
    }

    private static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The production pipeline with sources that stop at the end offsets seen at start. */
    private static void runJobToEndOfInput(
            String reports, String programs, String estimates, String deadLetters)
            throws Exception {
        FrequencyJobOptions options =
                FrequencyJobOptions.fromMap(
                        Map.of(
                                FrequencyJobOptions.BOOTSTRAP.key(), RUNTIME.bootstrapServers(),
                                FrequencyJobOptions.REPORTS_TOPIC.key(), reports,
                                FrequencyJobOptions.PROGRAMS_TOPIC.key(), programs,
                                FrequencyJobOptions.ESTIMATES_TOPIC.key(), estimates,
                                FrequencyJobOptions.DEAD_LETTER_TOPIC.key(), deadLetters,
                                FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1s",
                                FrequencyJobOptions.TRANSACTIONAL_ID_PREFIX.key(),
                                        "demo-it-" + reports));
        FrequencyEstimationJob job =
                new FrequencyEstimationJob(
                        options,
                        boundedSource(reports),
                        boundedSource(programs),
                        exactlyOnceSink(estimates, "estimates-" + reports),
                        exactlyOnceSink(deadLetters, "dead-letters-" + reports));
        StreamExecutionEnvironment env = RUNTIME.environment();
        job.buildInto(env);
        env.execute("demo-pipeline-it");
    }

    private static KafkaSource<RawRecord> boundedSource(String topic) {
        return KafkaSource.<RawRecord>builder()
                .setBootstrapServers(RUNTIME.bootstrapServers())
                .setTopics(topic)
                .setGroupId("demo-it-" + topic)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer(new RawRecordDeserializer())
                .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .build();
    }

    private static KafkaSink<EncodedRecord> exactlyOnceSink(String topic, String transactionalId) {
        return KafkaSink.<EncodedRecord>builder()
                .setBootstrapServers(RUNTIME.bootstrapServers())
                .setRecordSerializer(new EncodedRecordSerializer(topic))
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(transactionalId)
                .setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "600000")
                .build();
    }
}
