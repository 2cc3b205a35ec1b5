package dev.fieldprof.jobs.frequency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.jobs.testing.FrequencyJobTopics;
import dev.fieldprof.jobs.testing.JobsRuntimeExtension;
import dev.fieldprof.jobs.testing.TestProgramModels;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PoisonRecords;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The frequency job on a real broker with the short records that claim gigabytes among its input:
 * on the report topic the 42-byte FrequencyReports claiming 2·10⁹ counts (current schema and the
 * first) and the 15-byte one claiming a 2·10⁹-byte string, between valid reports; on the programs
 * topic, ahead of the valid model, a 15-byte ProgramModel claiming such a string and an 18-byte one
 * claiming 2·10⁹ methods. Before the decoders bounded claims by the bytes left, each of these threw
 * OutOfMemoryError in the decode functions, and the job restarted on the same record forever. Now
 * every valid report is counted in exactly its window, each poison record is one UNDECODABLE dead
 * letter naming the claim, and the job never restarts.
 */
class HostileRecordsITCase {
    @RegisterExtension
    static final JobsRuntimeExtension RUNTIME = JobsRuntimeExtension.builder().taskSlots(2).build();

    private static final String APP = "hostile-it:1.0";
    private static final int METHODS = 5;
    private static final long WINDOW = Duration.ofSeconds(3).toMillis();
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final RecordCodec<FrequencyReport> REPORTS =
            RecordCodec.of(FrequencyReport.class);
    private static final RecordCodec<ProgramModel> PROGRAMS = RecordCodec.of(ProgramModel.class);

    private static final String COUNTS_CLAIM =
            "FrequencyReport: cannot decode 42 bytes: array block claims 2000000000 items but 0"
                    + " bytes are left (every item takes at least one)";
    private static final String STRING_CLAIM =
            "cannot decode 15 bytes: string claims 2000000000 bytes but 0 bytes are left";

    @Test
    void poisonRecordsEndAsDeadLettersAndEveryValidReportIsCounted(
            @InjectClusterRESTAddress URI rest) throws Exception {
        FrequencyJobTopics topics = FrequencyJobTopics.create(RUNTIME);
        String reports = topics.reports();
        String programs = topics.programs();
        String estimates = topics.estimates();
        String deadLetters = topics.deadLetters();

        ProgramModel model = TestProgramModels.model(APP, METHODS, new int[][] {{0, 1}});
        RUNTIME.produce(
                List.of(
                        new ProducerRecord<>(
                                programs,
                                "poison:1",
                                PoisonRecords.fifteenBytesClaimingTwoGigabyteString(
                                        PROGRAMS.schema())),
                        new ProducerRecord<>(programs, "poison:2", programClaimingMethods()),
                        new ProducerRecord<>(programs, APP, PROGRAMS.encode(model))));

        JobClient job = start(topics);
        try {
            // The job got past both poison programs (their dead letters are committed, and the
            // model follows them on the topic) before any report arrives: reports that wait for
            // their model are another matter than this test's.
            assertThat(awaitDeadLetters(deadLetters, 2))
                    .extracting(DeadLetter::getSourceTopic)
                    .containsExactly(programs, programs);
            List<byte[]> poisons =
                    List.of(
                            PoisonRecords.frequencyReportClaimingTwoBillionCounts(REPORTS.schema()),
                            PoisonRecords.frequencyReportClaimingTwoBillionCounts(
                                    RecordCodec.historyOf("FrequencyReport").get(0)),
                            PoisonRecords.fifteenBytesClaimingTwoGigabyteString(REPORTS.schema()));
            Random random = new Random(20261127L);
            TreeMap<Long, Long> expected = new TreeMap<>();
            int sent = 0;
            for (byte[] poison : poisons) {
                List<ProducerRecord<String, byte[]>> batch = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    batch.add(
                            new ProducerRecord<>(reports, "device-" + sent, report(sent, random)));
                    sent++;
                }
                batch.add(new ProducerRecord<>(reports, "poison", poison));
                List<RecordMetadata> acknowledged = RUNTIME.produce(batch);
                for (RecordMetadata valid : acknowledged.subList(0, 4)) {
                    long start = valid.timestamp() - Math.floorMod(valid.timestamp(), WINDOW);
                    expected.merge(start, 1L, Long::sum);
                }
            }

            // A tumbling and a cumulative estimate per window.
            List<EstimateWindow> published = awaitEstimates(estimates, 2 * expected.size());

            List<EstimateWindow> tumbling =
                    published.stream()
                            .filter(w -> !w.getCumulative())
                            .sorted(Comparator.comparing(EstimateWindow::getWindowStartMillis))
                            .toList();
            assertThat(tumbling)
                    .as("one estimate per window with exactly its valid reports")
                    .extracting(
                            w -> w.getWindowStartMillis().toEpochMilli(),
                            EstimateWindow::getReports)
                    .containsExactlyElementsOf(
                            expected.entrySet().stream()
                                    .map(e -> tuple(e.getKey(), e.getValue()))
                                    .toList());
            assertThat(
                            published.stream()
                                    .filter(EstimateWindow::getCumulative)
                                    .mapToLong(EstimateWindow::getReports)
                                    .max())
                    .as("cumulative n")
                    .hasValue(12);

            List<DeadLetter> letters = awaitDeadLetters(deadLetters, 5);
            assertThat(letters)
                    .extracting(
                            DeadLetter::getSourceTopic,
                            DeadLetter::getReasonCode,
                            DeadLetter::getReason)
                    .containsExactlyInAnyOrder(
                            tuple(reports, DeadLetterReason.UNDECODABLE, COUNTS_CLAIM),
                            tuple(reports, DeadLetterReason.UNDECODABLE, COUNTS_CLAIM),
                            tuple(
                                    reports,
                                    DeadLetterReason.UNDECODABLE,
                                    "FrequencyReport: " + STRING_CLAIM),
                            tuple(
                                    programs,
                                    DeadLetterReason.UNDECODABLE,
                                    "ProgramModel: " + STRING_CLAIM),
                            tuple(
                                    programs,
                                    DeadLetterReason.UNDECODABLE,
                                    "ProgramModel: cannot decode 18 bytes: array block claims"
                                            + " 2000000000 items but 0 bytes are left (every item"
                                            + " takes at least one)"));
            assertThat(letters)
                    .as("each dead letter keeps its record whole")
                    .extracting(l -> l.getValue().remaining())
                    .containsOnly(42, 15, 18);

            assertThat(restarts(rest, job)).as("restarts of the job").isZero();
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** A ProgramModel of 18 bytes: an app version, a time, then a methods array of 2·10⁹ items. */
    private static byte[] programClaimingMethods() {
        ByteArrayOutputStream out = PoisonRecords.header(PROGRAMS.schema());
        PoisonRecords.varLong(out, 1); // appVersion: one byte
        out.write('p');
        PoisonRecords.varLong(out, 0); // createdAtMillis
        PoisonRecords.varLong(out, PoisonRecords.CLAIM); // methods
        return out.toByteArray();
    }

    private static byte[] report(int index, Random random) {
        int[] counts = IntStream.range(0, METHODS).map(v -> random.nextInt(5)).toArray();
        return REPORTS.encode(
                FrequencyReport.newBuilder()
                        .setReportId("hostile-" + index)
                        .setDeviceId("device-" + index)
                        .setAppVersion(APP)
                        .setConfigId("default")
                        .setK(TestProgramModels.K)
                        .setCreatedAtMillis(Instant.now())
                        .setCounts(IntStream.of(counts).boxed().toList())
                        .build());
    }

    private static JobClient start(FrequencyJobTopics topics) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        FrequencyEstimationJob.onKafka(
                        topics.options(
                                "hostile",
                                Map.of(FrequencyJobOptions.WINDOW.key(), WINDOW + " ms")))
                .buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }

    private static List<EstimateWindow> awaitEstimates(String topic, int count) {
        return RUNTIME.awaitAtLeast(topic, RecordCodec.of(EstimateWindow.class)::decode, count);
    }

    private static List<DeadLetter> awaitDeadLetters(String topic, int count) {
        return RUNTIME.awaitAtLeast(topic, RecordCodec.of(DeadLetter.class)::decode, count);
    }

    /**
     * The job's numRestarts metric from the MiniCluster's REST API, polled until the REST API's
     * metric refresh has fetched it.
     */
    private static long restarts(URI rest, JobClient job) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request =
                HttpRequest.newBuilder(
                                rest.resolve(
                                        "/jobs/" + job.getJobID() + "/metrics?get=numRestarts"))
                        .build();
        Pattern value = Pattern.compile("\"value\":\"(\\d+)\"");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            String body =
                    client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                            .body();
            Matcher found = value.matcher(body);
            if (found.find()) {
                return Long.parseLong(found.group(1));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no numRestarts in " + body);
            }
            Thread.sleep(500); // polling a real condition: the REST metrics' refresh
        }
    }
}
