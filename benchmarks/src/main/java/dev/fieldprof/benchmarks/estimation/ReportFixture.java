package dev.fieldprof.benchmarks.estimation;

import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SeededRandomSource;
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
 * heavy-tailed traces: the bytes the estimation job reads.
 */
final class ReportFixture {
    static final String APP = "bench:1.0";
    static final String CONFIG = "default";

    final ProgramModel model;
    final byte[][] reports;

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
                                                dev.fieldprof.schemas.PrivacyMode.EPSILON_T)))
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
