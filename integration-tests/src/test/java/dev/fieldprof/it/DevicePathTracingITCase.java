package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.client.tracing.DevicePathTracer;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.RecordCodec;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A device runtime that opted in to path tracing, on the embedded broker: it follows the edge model
 * topic, codes its paths with the published model, sends its path reports to Kafka at the epoch end
 * and counts them in its privacy ledger.
 */
class DevicePathTracingITCase {
    private static final String APP = "demo:paths-device";
    private static final String BRANCHES = "fieldprof-branches 1\nmethods 2\n0 0:2\n";

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME = FieldprofRuntimeExtension.builder().build();

    @TempDir Path state;
    @TempDir Path program;

    @Test
    void optedInDeviceCodesWithThePublishedModelSendsOverKafkaAndCountsInTheLedger()
            throws Exception {
        String frequency = RUNTIME.createRandomTopic(1, false);
        String reports = RUNTIME.createRandomTopic(1, false);
        String models = RUNTIME.createRandomTopic(1, true);
        ArrayBranchTable table = BranchTableText.parse(BRANCHES);
        EdgeModel v1 =
                EdgeModel.builder(EdgeModel.uniform(table))
                        .version(1)
                        .frequencies(0, 0, new int[] {1, 15})
                        .build();
        RUNTIME.produce(
                List.of(
                        new ProducerRecord<>(
                                models,
                                APP,
                                RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class)
                                        .encode(
                                                EdgeModelRecords.toRecord(
                                                        v1, APP, Instant.EPOCH, 1)))),
                new StringSerializer(),
                new ByteArraySerializer());

        Path resource = program.resolve(BranchTableText.RESOURCE);
        Files.createDirectories(resource.getParent());
        Files.writeString(resource, BRANCHES);
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        long coded;
        // The program's loader: its branch description, and the SDK's Kafka client through the
        // parent (Kafka loads its serializers through the context class loader).
        try (URLClassLoader loader =
                new URLClassLoader(
                        new URL[] {program.toUri().toURL()},
                        DevicePathTracingITCase.class.getClassLoader())) {
            Thread.currentThread().setContextClassLoader(loader);
            ClientConfig config =
                    ClientConfig.builder()
                            .appVersion(APP)
                            .deviceId("device-1")
                            .methodCount(2)
                            .privacy("default", Math.log(9), 1, 10)
                            // A report of 10 ln 9: no budget, by name.
                            .noBudget()
                            .checkpointInterval(null)
                            .stateDir(state)
                            .transport(ClientConfig.TransportKind.KAFKA)
                            .kafka(RUNTIME.bootstrapServers(), frequency)
                            .pathTopics(reports, models)
                            .paths(true, false)
                            .build();
            try (DeviceRuntime runtime = DeviceRuntime.start(config)) {
                DevicePathTracer tracer = runtime.pathTracer().orElseThrow();
                assertThat(tracer.models().awaitVersion(1, Duration.ofSeconds(60))).isTrue();
                for (int i = 0; i < 10; i++) {
                    Object h = PathProbes.enter(0);
                    PathProbes.branch(h, 0, 0, 1);
                    PathProbes.exit(h, 0);
                }
                runtime.endEpoch();
                coded = tracer.reportBytes();
                PrivacyLedger.Entry entry = runtime.ledger();
                assertThat(entry.pathTracing()).isTrue();
                assertThat(entry.pathReports()).isEqualTo(1L);
                assertThat(entry.pathBytes()).isEqualTo(coded);
            }
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
        assertThat(PathProbes.tracer()).isNull();

        List<byte[]> sent =
                RUNTIME.awaitRecords(
                        reports, new ByteArrayDeserializer(), 1, Duration.ofSeconds(60));
        assertThat(sent).hasSize(1);
        PathReport report = RecordCodec.of(PathReport.class).decode(sent.get(0));
        assertThat(report.getDeviceId().toString()).isEqualTo("device-1");
        assertThat(report.getModelVersion()).isEqualTo(1L);
        assertThat(report.getEvents()).isEqualTo(30L);
        byte[] bytes = new byte[report.getCoded().remaining()];
        report.getCoded().duplicate().get(bytes);
        assertThat((long) bytes.length).isEqualTo(coded);
        PathRecording decoded = new PathRecording();
        new PathDecoder(v1).decode(bytes, decoded);
        assertThat(decoded.size()).isEqualTo(30);
    }
}
