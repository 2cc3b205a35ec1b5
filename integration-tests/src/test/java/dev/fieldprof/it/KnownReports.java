package dev.fieldprof.it;

import dev.fieldprof.estimation.PartialSum;
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
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A known set of randomized frequency reports of one small app and its program model, for the job
 * tests that compare what the job estimated with what the estimation core computes from the same
 * randomized counts: heavy-tailed traces of k events randomized by the client SDK's exact
 * randomizer with a fixed seed.
 */
final class KnownReports {
    static final int METHODS = 40;
    static final int K = 5 * METHODS;
    static final double EPSILON = Math.log(9);
    static final int T = 10;
    static final String CONFIG = "default";

    private KnownReports() {}

    /** One randomized report, with its Kafka timestamp once the broker has stamped it. */
    record Report(int index, long timestamp, int[] counts, FrequencyReport body) {
        Report stampedAt(long appendTime) {
            return new Report(index, appendTime, counts, body);
        }
    }

    static PrivacyParameters privacy() {
        return new PrivacyParameters(EPSILON, T, K);
    }

    /** |V| methods, a chain of pairs over the first quarter, one privacy configuration. */
    static ProgramModel model(String app) {
        List<MethodInfo> methods = new ArrayList<>();
        List<OrderPair> pairs = new ArrayList<>();
        for (int v = 0; v < METHODS; v++) {
            methods.add(new MethodInfo(v, "<it.Known" + v + ": void run()>"));
            if (v > 0 && v < METHODS / 4) {
                pairs.add(new OrderPair(v - 1, v, PairRule.OTHER));
            }
        }
        return ProgramModel.newBuilder()
                .setAppVersion(app)
                .setCreatedAtMillis(Instant.EPOCH)
                .setMethods(methods)
                .setPairs(pairs)
                .setPrivacyConfigs(
                        List.of(
                                new PrivacyConfig(
                                        CONFIG,
                                        EPSILON,
                                        T,
                                        K,
                                        dev.fieldprof.schemas.PrivacyMode.EPSILON_T,
                                        null)))
                .build();
    }

    /** {@code count} reports of {@code app}, ids {@code <prefix>-<index>}, from 7 devices. */
    static List<Report> randomized(long seed, String app, String prefix, int count) {
        LocalRandomizer randomizer = new LocalRandomizer(privacy(), new SeededRandomSource(seed));
        SplittableRandom random = new SplittableRandom(seed);
        List<Report> reports = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            int[] trace = new int[METHODS];
            for (int e = 0; e < K; e++) {
                // Method v with probability about 1/(v+1): a few hot methods, a long tail.
                int v = (int) (Math.exp(random.nextDouble() * Math.log(METHODS + 1)) - 1);
                trace[Math.min(v, METHODS - 1)]++;
            }
            int[] counts = randomizer.randomize(trace);
            List<Integer> boxed = new ArrayList<>(METHODS);
            for (int c : counts) {
                boxed.add(c);
            }
            FrequencyReport body =
                    FrequencyReport.newBuilder()
                            .setReportId(prefix + "-" + r)
                            .setDeviceId("device-" + (r % 7))
                            .setAppVersion(app)
                            .setConfigId(CONFIG)
                            .setK(K)
                            .setCreatedAtMillis(Instant.ofEpochMilli(r))
                            .setCounts(boxed)
                            .build();
            reports.add(new Report(r, 0, counts, body));
        }
        return reports;
    }

    /**
     * Writes each report to the partition {@code partitionOf} gives it, with the producer timestamp
     * {@code createTime} gives it (null: the producer's clock), then the extra records (value only,
     * on their partitions); returns the reports with the timestamps the broker gave them (its
     * append time on a report topic).
     */
    static List<Report> produce(
            FieldprofRuntimeExtension runtime,
            String topic,
            List<Report> reports,
            java.util.function.ToIntFunction<Report> partitionOf,
            java.util.function.Function<Report, Long> createTime,
            List<ProducerRecord<String, byte[]>> extra) {
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        for (Report report : reports) {
            records.add(
                    new ProducerRecord<>(
                            topic,
                            partitionOf.applyAsInt(report),
                            createTime.apply(report),
                            report.body.getDeviceId(),
                            codec.encode(report.body)));
        }
        records.addAll(extra);
        List<RecordMetadata> acknowledged =
                runtime.produce(records, new StringSerializer(), new ByteArraySerializer());
        List<Report> stamped = new ArrayList<>();
        for (int i = 0; i < reports.size(); i++) {
            stamped.add(reports.get(i).stampedAt(acknowledged.get(i).timestamp()));
        }
        return stamped;
    }

    /** The exact sums of the reports per window start, in window order. */
    static TreeMap<Long, PartialSum> sumsByWindow(List<Report> reports, long window) {
        TreeMap<Long, PartialSum> sums = new TreeMap<>();
        for (Report report : reports) {
            sums.computeIfAbsent(
                            windowStart(report.timestamp, window), w -> new PartialSum(METHODS))
                    .add(report.counts);
        }
        return sums;
    }

    static long windowStart(long timestamp, long window) {
        return timestamp - Math.floorMod(timestamp, window);
    }
}
