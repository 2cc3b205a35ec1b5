package dev.fieldprof.cli.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.runtime.EmbeddedKafka;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProbePlan;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fieldprof plan --call-rates APP:VERSION --bootstrap} on a real broker: the plan is weighed
 * by the app version's newest cumulative estimate on the estimates topic, not by an older
 * cumulative one, a one-window estimate or another version's.
 */
class PlanCallRatesITCase {
    private static final RecordCodec<EstimateWindow> ESTIMATES =
            RecordCodec.of(EstimateWindow.class);

    private static EmbeddedKafka kafka;

    @TempDir Path work;

    @BeforeAll
    static void startBrokerAndPublishEstimates() throws Exception {
        kafka = EmbeddedKafka.builder().defaultPartitions(1).start();
        kafka.createTopic(Topics.ESTIMATES, 1, Map.of());
        // Older cumulative: everything equally hot, so every method would cost 1 (x 6 x 1/6).
        double[] even = {1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0};
        EstimateWindow older = PlanCallRatesCommandTest.estimate("six:1", even, List.of());
        EstimateWindow newest =
                PlanCallRatesCommandTest.estimate(
                        "six:1", PlanCallRatesCommandTest.SHARES, List.of());
        // One window after it, in which a alone is hot: not cumulative, so not taken.
        EstimateWindow window =
                EstimateWindow.newBuilder(
                                PlanCallRatesCommandTest.estimate(
                                        "six:1",
                                        new double[] {0.9, 0.02, 0.02, 0.02, 0.02, 0.02},
                                        List.of()))
                        .setCumulative(false)
                        .build();
        EstimateWindow otherVersion = PlanCallRatesCommandTest.estimate("six:2", even, List.of());
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (EstimateWindow w : List.of(older, newest, window, otherVersion)) {
                producer.send(
                                new ProducerRecord<>(
                                        Topics.ESTIMATES,
                                        w.getAppVersion().getBytes(StandardCharsets.UTF_8),
                                        ESTIMATES.encode(w)))
                        .get();
            }
        }
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    private Path model() {
        ProgramModel model =
                ProgramModels.build(
                        "six:1",
                        Instant.ofEpochMilli(0),
                        PlanCallRatesCommandTest.SIGNATURES,
                        List.of(),
                        ProgramModels.privacyConfig("default", 1.0, 1, 20, 6),
                        Map.of());
        Path file = work.resolve("six.model");
        ProgramModels.write(model, file);
        return file;
    }

    private int plan(CliCapture cli, String appVersion) {
        return cli.run(
                "plan",
                "--model",
                model().toString(),
                "--variants",
                "2",
                "--h-bound",
                "5",
                "--strategy",
                "balanced-probes",
                "--cost-unit",
                "methods",
                "--seed",
                "7",
                "--call-rates",
                appVersion,
                "--bootstrap",
                kafka.bootstrapServers(),
                "--out",
                work.resolve("planned.model").toString());
    }

    @Test
    void weighsByTheVersionsNewestCumulativeEstimateOnTheTopic() {
        CliCapture cli = new CliCapture();

        assertThat(plan(cli, "six:1")).as(cli.err()).isZero();

        ProbePlan plan = ProgramModels.read(work.resolve("planned.model")).getProbePlan();
        assertThat(plan.getMethodCosts()).containsExactly(1L, 1L, 1L, 1L, 3L, 3L);
        assertThat(plan.getVariants()).containsExactly(List.of(1, 2, 4), List.of(0, 3, 5));
        assertThat(cli.out())
                .contains(
                        "call rates: six:1's cumulative estimate of 2000 reports (config"
                                + " default), relative to the mean method; 1 of 6 methods");
    }

    @Test
    void aVersionWithoutEstimatesOnTheTopicFailsInOneLine() {
        CliCapture cli = new CliCapture();

        assertThat(plan(cli, "six:3")).isEqualTo(1);

        assertThat(cli.err().strip())
                .isEqualTo(
                        "fieldprof: no cumulative estimate of six:3 on fieldprof.estimates at "
                                + kafka.bootstrapServers());
    }
}
