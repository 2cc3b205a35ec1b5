package dev.fieldprof.jobs.frequency;

import static dev.fieldprof.jobs.testing.TestProgramModels.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.jobs.frequency.core.ProgramIndex;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.jobs.testing.CollectingSink;
import dev.fieldprof.jobs.testing.TestProgramModels;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The whole job on a MiniCluster with bounded sources and collecting sinks. */
class FrequencyEstimationJobITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String APP = "demo:1.0";

    /** ε = 2·ln 3, t = 1: a = 3; k = 4. */
    private static final double EPSILON = TestProgramModels.EPSILON;

    private static final int K = TestProgramModels.K;
    private static final RecordCodec<FrequencyReport> REPORTS =
            RecordCodec.of(FrequencyReport.class);
    private static final RecordCodec<ProgramModel> PROGRAMS = RecordCodec.of(ProgramModel.class);
    private static final RecordCodec<EstimateWindow> ESTIMATES =
            RecordCodec.of(EstimateWindow.class);
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);

    private long offset;

    /** The same exact results with the state on the heap and in RocksDB. */
    @ParameterizedTest
    @ValueSource(strings = {"hashmap", "rocksdb"})
    void estimatesWindowsExactlyAndDeadLettersBadRecords(String stateBackend) throws Exception {
        List<RawRecord> programs = new ArrayList<>();
        programs.add(program(model(APP, 4, new int[][] {{0, 1}, {1, 2}, {0, 1}})));
        programs.add(program(model("broken:1", 2, new int[][] {{0, 9}})));
        programs.add(raw("fieldprof.programs", "x", new byte[] {1, 2, 3}, 0));

        List<RawRecord> reports = new ArrayList<>();
        // Window [0, 60 s): four reports, one of them sent twice.
        int[][] first = {{4, 0, 0, 0}, {1, 2, 1, 0}, {0, 0, 3, 1}, {2, 2, 2, 2}};
        for (int i = 0; i < first.length; i++) {
            reports.add(report("w1-" + i, APP, "default", K, first[i], 1_000 + i * 1_000));
        }
        reports.add(report("w1-1", APP, "default", K, first[1], 6_000)); // a re-send
        reports.add(raw("fieldprof.reports.frequency", "dev", new byte[] {9, 9}, 7_000));
        reports.add(report("bad-config", APP, "strict", K, first[0], 8_000));
        reports.add(report("bad-k", APP, "default", 5, new int[] {5, 0, 0, 0}, 9_000));
        reports.add(report("bad-length", APP, "default", K, new int[] {1, 2, 1}, 10_000));
        reports.add(report("bad-count", APP, "default", K, new int[] {5, 0, 0, 0}, 11_000));
        reports.add(report("ghost", "ghost:1", "default", K, first[0], 12_000));
        // Window [60 s, 120 s): two reports.
        int[][] second = {{0, 1, 1, 2}, {3, 0, 0, 1}};
        for (int i = 0; i < second.length; i++) {
            reports.add(report("w2-" + i, APP, "default", K, second[i], 61_000 + i * 1_000));
        }

        CollectingSink estimates = new CollectingSink();
        CollectingSink deadLetters = new CollectingSink();
        FrequencyJobOptions options =
                FrequencyJobOptions.parse(
                        "--bootstrap",
                        "unused:9092",
                        "--shards",
                        "3",
                        "--window",
                        "1 min",
                        "--top",
                        "3",
                        "--checkpoint-interval",
                        "0",
                        "--state-backend",
                        stateBackend);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        new FrequencyEstimationJob(
                        options,
                        RecordListSource.of(reports),
                        RecordListSource.of(programs),
                        estimates,
                        deadLetters)
                .buildInto(env);
        env.execute("frequency-estimation-test");

        List<EstimateWindow> windows =
                decode(estimates.received(), ESTIMATES).stream()
                        .sorted(
                                Comparator.comparing((EstimateWindow w) -> w.getCumulative())
                                        .thenComparing(EstimateWindow::getWindowEndMillis))
                        .toList();
        assertThat(windows)
                .as(
                        "estimates %s, dead letters %s",
                        windows.stream()
                                .map(
                                        w ->
                                                w.getWindowStartMillis()
                                                        + "/"
                                                        + w.getWindowEndMillis()
                                                        + "/"
                                                        + w.getCumulative()
                                                        + "/n="
                                                        + w.getReports())
                                .toList(),
                        decode(deadLetters.received(), LETTERS).stream()
                                .map(l -> l.getReasonCode() + ":" + l.getReason())
                                .toList())
                .hasSize(4);
        EstimateWindow w1 = windows.get(0);
        EstimateWindow w2 = windows.get(1);
        EstimateWindow c1 = windows.get(2);
        EstimateWindow c2 = windows.get(3);
        assertWindow(w1, false, 0, 60_000, first);
        assertWindow(w2, false, 60_000, 120_000, second);
        assertWindow(c1, true, 0, 60_000, first);
        int[][] both = new int[first.length + second.length][];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        assertWindow(c2, true, 0, 120_000, both);

        Map<String, DeadLetterReason> reasons =
                decode(deadLetters.received(), LETTERS).stream()
                        .collect(
                                Collectors.toMap(
                                        l -> l.getSourceTopic() + "@" + l.getOffset(),
                                        DeadLetter::getReasonCode));
        assertThat(reasons.values())
                .containsExactlyInAnyOrder(
                        DeadLetterReason.INVALID,
                        DeadLetterReason.UNDECODABLE,
                        DeadLetterReason.UNDECODABLE,
                        DeadLetterReason.UNKNOWN_PRIVACY_CONFIG,
                        DeadLetterReason.WRONG_TRACE_LENGTH,
                        DeadLetterReason.WRONG_VECTOR_LENGTH,
                        DeadLetterReason.COUNT_OUT_OF_RANGE,
                        DeadLetterReason.MODEL_WAIT_EXPIRED);
        DeadLetter ghost =
                decode(deadLetters.received(), LETTERS).stream()
                        .filter(l -> l.getReasonCode() == DeadLetterReason.MODEL_WAIT_EXPIRED)
                        .findFirst()
                        .orElseThrow();
        assertThat(ghost.getReason()).contains("ghost:1");
        assertThat(REPORTS.decode(ghost.getValue().array()).getReportId()).isEqualTo("ghost");
        assertThat(new String(ghost.getKey().array(), StandardCharsets.UTF_8)).isEqualTo("device");
    }

    /**
     * Kills the job mid-stream (an exception in the source after about three seconds of checkpoints
     * every 100 ms); Flink restores it from its last checkpoint and every report is still counted
     * exactly once, with the exact sums.
     */
    @Test
    void countsEveryReportOnceAfterAFailureAndRestore() throws Exception {
        List<RawRecord> programs = List.of(program(model(APP, 4, new int[][] {{0, 1}, {1, 2}})));
        List<RawRecord> reports = new ArrayList<>();
        int[][] counts = new int[500][];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new int[] {i % 5, (i / 5) % 5 == 4 ? 0 : 4 - i % 5, 0, 0};
            counts[i][2] = K - counts[i][0] - counts[i][1];
            reports.add(report("r-" + i, APP, "default", K, counts[i], 1_000 + i * 100L));
        }
        String id = java.util.UUID.randomUUID().toString();
        CollectingSink estimates = new CollectingSink();
        CollectingSink deadLetters = new CollectingSink();
        FrequencyJobOptions options =
                FrequencyJobOptions.parse(
                        "--bootstrap",
                        "unused:9092",
                        "--shards",
                        "2",
                        "--top",
                        "3",
                        "--checkpoint-interval",
                        "100 ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        // Records 250..499 are the second reader's: fail 150 records (about 3 s) into it.
        new FrequencyEstimationJob(
                        options,
                        RecordListSource.failingOnce(reports, 400, id, 100),
                        RecordListSource.of(programs),
                        estimates,
                        deadLetters)
                .buildInto(env);
        env.execute("frequency-estimation-recovery-test");

        assertThat(RecordListSource.FAILED).containsKey(id);
        var generated = RecordListSource.GENERATED.get(id);
        assertThat(generated.get(0))
                .as("the first record was not replayed: the restore came from a checkpoint")
                .isEqualTo(1);
        List<EstimateWindow> windows = decode(estimates.received(), ESTIMATES);
        assertThat(windows).hasSize(2);
        for (EstimateWindow w : windows) {
            assertWindow(w, w.getCumulative(), 0, 60_000, counts);
        }
        assertThat(deadLetters.received()).isEmpty();
    }

    /**
     * The model of an app version republished with another |V| under the same config id. Before,
     * window sums of both widths met in one aggregate and the job failed (and failed again after
     * every restart); now each generation has its own windows and cumulative estimate, named in the
     * EstimateWindow.
     */
    @Test
    void keepsTheGenerationsOfARepublishedModelApart() throws Exception {
        ProgramModel four = model(APP, 4, new int[][] {{0, 1}});
        ProgramModel five = model(APP, 5, new int[][] {{0, 1}});
        List<RawRecord> programs = List.of(program(four), program(five));
        List<RawRecord> reports = new ArrayList<>();
        int[][] ofFour = {{4, 0, 0, 0}, {1, 2, 1, 0}, {0, 0, 3, 1}};
        int[][] ofFive = {{4, 0, 0, 0, 0}, {0, 1, 1, 1, 1}};
        for (int i = 0; i < ofFour.length; i++) {
            reports.add(report("four-" + i, APP, "default", K, ofFour[i], 1_000 + i));
            if (i < ofFive.length) {
                reports.add(report("five-" + i, APP, "default", K, ofFive[i], 2_000 + i));
            }
        }
        CollectingSink estimates = new CollectingSink();
        CollectingSink deadLetters = new CollectingSink();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        new FrequencyEstimationJob(
                        FrequencyJobOptions.parse(
                                "--bootstrap", "unused:9092", "--checkpoint-interval", "0"),
                        // Slowly: both models are known before the reports come.
                        RecordListSource.slowly(reports, 20),
                        RecordListSource.of(programs),
                        estimates,
                        deadLetters)
                .buildInto(env);
        env.execute("frequency-estimation-generations-test");

        long generationOfFour = ProgramIndex.of(four).shape().generation();
        long generationOfFive = ProgramIndex.of(five).shape().generation();
        // A report that reaches a validation instance before the model of its generation did is
        // dead-lettered with its reason (the two models are read in parallel with the reports);
        // every other one counts under its own generation, and nothing fails.
        List<DeadLetter> letters = decode(deadLetters.received(), LETTERS);
        assertThat(letters)
                .allMatch(l -> l.getReasonCode() == DeadLetterReason.WRONG_VECTOR_LENGTH);
        List<EstimateWindow> windows = decode(estimates.received(), ESTIMATES);
        assertThat(windows)
                .allMatch(
                        w ->
                                w.getModelGeneration()
                                        == (w.getNormalized().size() == 4
                                                ? generationOfFour
                                                : generationOfFive));
        long counted =
                windows.stream()
                        .filter(w -> !w.getCumulative())
                        .mapToLong(w -> w.getReports())
                        .sum();
        assertThat(counted + letters.size()).isEqualTo(reports.size());
        for (long generation : new long[] {generationOfFour, generationOfFive}) {
            List<EstimateWindow> ofGeneration =
                    windows.stream().filter(w -> w.getModelGeneration() == generation).toList();
            if (ofGeneration.isEmpty()) {
                continue; // every report of it came before its model (counted above)
            }
            assertThat(ofGeneration.stream().filter(EstimateWindow::getCumulative))
                    .as("one cumulative estimate per generation, of its own reports")
                    .singleElement()
                    .extracting(EstimateWindow::getReports)
                    .isEqualTo(
                            ofGeneration.stream()
                                    .filter(w -> !w.getCumulative())
                                    .mapToLong(EstimateWindow::getReports)
                                    .sum());
        }
        System.out.printf(
                "generations: %d reports counted, %d dead-lettered before their model%n",
                counted, letters.size());
    }

    private static void assertWindow(
            EstimateWindow w, boolean cumulative, long start, long end, int[][] counts) {
        PrivacyParameters privacy = new PrivacyParameters(EPSILON, 1, K);
        double a = privacy.a();
        int n = counts.length;
        double nk = (double) n * K;
        assertThat(w.getAppVersion()).isEqualTo(APP);
        assertThat(w.getConfigId()).isEqualTo("default");
        assertThat(w.getCumulative()).isEqualTo(cumulative);
        assertThat(w.getWindowStartMillis()).isEqualTo(Instant.ofEpochMilli(start));
        assertThat(w.getWindowEndMillis()).isEqualTo(Instant.ofEpochMilli(end));
        assertThat(w.getReports()).isEqualTo(n);
        assertThat(w.getK()).isEqualTo(K);
        for (int v = 0; v < 4; v++) {
            int column = v;
            long sum = IntStream.range(0, n).mapToLong(i -> counts[i][column]).sum();
            double expected = ((a + 1) * sum - nk) / (a - 1) / nk;
            assertThat(w.getNormalized().get(v)).as("g^(%d)", v).isCloseTo(expected, within(1e-12));
        }
        assertThat(w.getStandardError()).isCloseTo(Math.sqrt(a / nk) / (a - 1), within(1e-15));
        assertThat(w.getStandardErrors())
                .as("ε-t: every method's standard error is the common one")
                .hasSize(w.getNormalized().size())
                .allSatisfy(se -> assertThat(se).isEqualTo(w.getStandardError()));
        List<Double> g = w.getConsistent();
        assertThat(g.stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1, within(1e-12));
        assertThat(g.get(0)).isLessThanOrEqualTo(g.get(1));
        assertThat(g.get(1)).isLessThanOrEqualTo(g.get(2));
        assertThat(g).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(0.0));
        assertThat(w.getSolve().getKktResidual()).isLessThan(1e-12);
        assertThat(w.getTop()).hasSize(3);
        assertThat(w.getTop().get(0).getSignature()).startsWith("<demo.M");
        assertThat(w.getHotMethods()).isNotEmpty();
    }

    private static <T extends org.apache.avro.specific.SpecificRecordBase> List<T> decode(
            List<EncodedRecord> records, RecordCodec<T> codec) {
        return records.stream().map(r -> codec.decode(r.value)).toList();
    }

    private RawRecord program(ProgramModel model) {
        return raw("fieldprof.programs", model.getAppVersion(), PROGRAMS.encode(model), 0);
    }

    private RawRecord report(
            String id, String app, String config, int k, int[] counts, long timestamp) {
        FrequencyReport report =
                FrequencyReport.newBuilder()
                        .setReportId(id)
                        .setDeviceId("device")
                        .setAppVersion(app)
                        .setConfigId(config)
                        .setK(k)
                        .setCreatedAtMillis(Instant.ofEpochMilli(timestamp))
                        .setCounts(IntStream.of(counts).boxed().toList())
                        .build();
        return raw("fieldprof.reports.frequency", "device", REPORTS.encode(report), timestamp);
    }

    private RawRecord raw(String topic, String key, byte[] value, long timestamp) {
        return new RawRecord(
                topic, 0, offset++, timestamp, key.getBytes(StandardCharsets.UTF_8), value);
    }
}
