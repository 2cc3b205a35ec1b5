package dev.fieldprof.benchmarks.estimation;

import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PairRule;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A program model of |V| methods (a chain of pairs over the first half) with k = 5·|V|, ε = ln 9, t
 * = 10, and encoded FrequencyReports randomized by the client SDK's real randomizer from
 * heavy-tailed traces: the bytes the estimation job reads. {@link #userLevel} makes the same for a
 * user-level configuration: each report one event's ω-subset from the subset-selection oracle.
 */
final class ReportFixture {
    static final String APP = "bench:1.0";
    static final String CONFIG = "default";

    final ProgramModel model;
    final byte[][] reports;

    private ReportFixture(ProgramModel model, byte[][] reports) {
        this.model = model;
        this.reports = reports;
    }

    /**
     * A user-level configuration (k = t = 1) at {@code epsilon} over |V| = {@code methods}, and
     * {@code count} reports: each the oracle's ω-subset of one event drawn from the same
     * heavy-tailed distribution, ω the oracle's optimal size at (|V|, ε).
     */
    static ReportFixture userLevel(int methods, double epsilon, int count, long seed) {
        ProgramModel model =
                program(
                        methods,
                        new PrivacyConfig(
                                CONFIG,
                                epsilon,
                                1,
                                1,
                                dev.fieldprof.schemas.PrivacyMode.USER_LEVEL,
                                null));
        SubsetSelection oracle = new SubsetSelection(methods, epsilon);
        SeededRandomSource source = new SeededRandomSource(seed);
        SplittableRandom random = new SplittableRandom(seed);
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        byte[][] reports = new byte[count][];
        for (int r = 0; r < count; r++) {
            int event =
                    (int)
                            Math.min(
                                    methods - 1,
                                    Math.exp(random.nextDouble() * Math.log(methods)) - 1);
            List<Integer> subset = new ArrayList<>(oracle.subsetSize());
            for (int id : oracle.randomize(source, event)) {
                subset.add(id);
            }
            reports[r] =
                    codec.encode(
                            FrequencyReport.newBuilder()
                                    .setReportId("report-" + seed + "-" + r)
                                    .setDeviceId("device-" + (r % 1000))
                                    .setAppVersion(APP)
                                    .setConfigId(CONFIG)
                                    .setK(1)
                                    .setT(1)
                                    .setEpsilon(epsilon)
                                    .setCreatedAtMillis(Instant.EPOCH)
                                    .setCounts(List.of())
                                    .setSubset(subset)
                                    .build());
        }
        return new ReportFixture(model, reports);
    }

    private static ProgramModel program(int methods, PrivacyConfig config) {
        List<MethodInfo> infos = new ArrayList<>();
        List<OrderPair> pairs = new ArrayList<>();
        for (int i = 0; i < methods; i++) {
            infos.add(new MethodInfo(i, "<bench.C" + i + ": void m()>"));
            if (i > 0 && i < methods / 2) {
                pairs.add(new OrderPair(i - 1, i, PairRule.OTHER));
            }
        }
        return ProgramModel.newBuilder()
                .setAppVersion(APP)
                .setCreatedAtMillis(Instant.EPOCH)
                .setMethods(infos)
                .setPairs(pairs)
                .setPrivacyConfigs(List.of(config))
                .build();
    }

    ReportFixture(int methods, int count, long seed) {
        int k = 5 * methods;
        List<MethodInfo> infos = new ArrayList<>();
        List<OrderPair> pairs = new ArrayList<>();
        for (int i = 0; i < methods; i++) {
            infos.add(new MethodInfo(i, "<bench.C" + i + ": void m()>"));
            if (i > 0 && i < methods / 2) {
                pairs.add(new OrderPair(i - 1, i, PairRule.OTHER));
            }
        }
        model =
                ProgramModel.newBuilder()
                        .setAppVersion(APP)
                        .setCreatedAtMillis(Instant.EPOCH)
                        .setMethods(infos)
                        .setPairs(pairs)
                        .setPrivacyConfigs(
                                List.of(
                                        new PrivacyConfig(
                                                CONFIG,
                                                Math.log(9),
                                                10,
                                                k,
                                                dev.fieldprof.schemas.PrivacyMode.EPSILON_T,
                                                null)))
                        .build();
        LocalRandomizer randomizer =
                new LocalRandomizer(
                        new PrivacyParameters(Math.log(9), 10, k), new SeededRandomSource(seed));
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        SplittableRandom random = new SplittableRandom(seed);
        reports = new byte[count][];
        for (int r = 0; r < count; r++) {
            int[] trace = new int[methods];
            for (int e = 0; e < k; e++) {
                // Zipf-like: method v with probability about 1/(v+1).
                trace[
                        (int)
                                Math.min(
                                        methods - 1,
                                        Math.exp(random.nextDouble() * Math.log(methods)) - 1)]++;
            }
            List<Integer> counts = new ArrayList<>(methods);
            for (int c : randomizer.randomize(trace)) {
                counts.add(c);
            }
            reports[r] =
                    codec.encode(
                            FrequencyReport.newBuilder()
                                    .setReportId("report-" + seed + "-" + r)
                                    .setDeviceId("device-" + (r % 1000))
                                    .setAppVersion(APP)
                                    .setConfigId(CONFIG)
                                    .setK(k)
                                    .setCreatedAtMillis(Instant.EPOCH)
                                    .setCounts(counts)
                                    .build());
        }
    }
}
