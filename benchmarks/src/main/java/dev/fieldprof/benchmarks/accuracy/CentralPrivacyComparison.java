package dev.fieldprof.benchmarks.accuracy;

import dev.fieldprof.client.transport.kafka.SealedReports;
import dev.fieldprof.estimation.ConstraintProjection;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.FrequencyMetrics;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.estimation.evaluation.DeviceWorkload;
import dev.fieldprof.estimation.evaluation.SimulatedReports;
import dev.fieldprof.estimation.plan.ShuffledPlanner;
import dev.fieldprof.jobs.frequency.core.ShuffledBatchOpening;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.ldp.HypergeometricSampler;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.RandomSource;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.ldp.ShuffleAmplification;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.sealing.ReportOpener;
import dev.fieldprof.sealing.SealingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The three privacy modes at equal central privacy, on the same simulated devices, one report each,
 * through the real randomizers, the real shuffler, the real estimator and the real projection.
 *
 * <ul>
 *   <li><b>ε-t at k = 1</b> and <b>user-level</b> are local-only: the analyst sees every report as
 *       sent, so the local ε₀ is also the central guarantee, and they randomize at ε₀ = the central
 *       ε (δ = 0).
 *   <li><b>shuffled</b>: each device makes the user-level report at the largest ε₀ whose shuffled
 *       batch of n reports is (ε, δ)-DP ({@link ShuffledPlanner#largestEpsilon0}, what {@code
 *       fieldprof privacy plan --mode shuffled} uses), seals it as the SDK's transport does ({@link
 *       SealedReports}), and the {@link Shuffler} releases batches; the analyst opens exactly the
 *       released parts with its keys ({@link ShuffledBatchOpening}, the frequency job's opening),
 *       sums the opened subsets and estimates at ε₀. The batch is the whole fleet: n = the devices,
 *       one window's batch.
 * </ul>
 *
 * <p>The devices: the workload's {@code recorded} epochs, resampled uniformly with replacement by a
 * seeded draw to the fleet size (device d replays recorded epoch r_d). Truth is the devices' mean
 * share profile, as {@link dev.fieldprof.estimation.evaluation.ModeComparison} measures it.
 */
public final class CentralPrivacyComparison {
    /** The shuffled configuration's id in the sealed reports (part of the sealing context). */
    public static final String CONFIG_ID = "shuffled";

    /** The modes, in table order. */
    public enum Mode {
        EPSILON_T("epsilon-t k=1"),
        USER_LEVEL("user-level"),
        SHUFFLED("shuffled");

        private final String label;

        Mode(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * What the shuffled mode's reports go through between the devices and the analyst: the sealed
     * records in, the released ShuffledBatch parts out (key and encoded value of each), as they
     * would be written to the shuffled topic.
     */
    @FunctionalInterface
    public interface Shuffler {
        /**
         * @param sealed the devices' SealedReport records, one per device
         * @param batchSize n: the shuffler releases batches of exactly this many reports
         */
        List<EncodedRecord> shuffle(List<RawRecord> sealed, int batchSize) throws Exception;
    }

    /**
     * One cell of the table.
     *
     * @param epsilon0 the local ε each report is randomized at
     * @param centralEpsilon the central ε the analyst holds (for the shuffled mode, of a batch of
     *     {@code batchSize} at {@code delta}; a hair below the target by ε₀'s rounding)
     * @param delta the central δ (0 for the local modes)
     * @param batchSize reports per shuffled batch (0 for the local modes)
     * @param seconds wall time of the cell: randomizing, sealing, shuffling, opening, estimating
     * @param shuffledSeconds for the shuffled mode, the wall time of the devices' randomizing and
     *     sealing, of the shuffler job (submission to its end) and of the analyst's opening; empty
     *     for the local modes
     */
    public record Row(
            String program,
            int methods,
            int devices,
            double targetEpsilon,
            Mode mode,
            double epsilon0,
            double centralEpsilon,
            double delta,
            long batchSize,
            double relativeErrorRaw,
            double relativeErrorProjected,
            double hotCoverageProjected,
            double seconds,
            double[] shuffledSeconds) {}

    /**
     * What the analyst made of the released batches.
     *
     * @param sum the opened reports' sum, the estimator's input
     * @param batches distinct batch ids among the released parts
     * @param batchSizes each distinct batch's declared size, in the order first seen
     * @param rejected payloads or parts that did not open or pass the checks
     */
    public record Opened(PartialSum sum, int batches, List<Integer> batchSizes, int rejected) {}

    /**
     * What the devices of the shuffled mode sent.
     *
     * @param records one SealedReport record per device
     * @param sum the sum of the reports before sealing (what the analyst's sum must equal)
     */
    public record Sent(List<RawRecord> records, PartialSum sum) {}

    private final DeviceWorkload workload;
    private final int recorded;
    private final double delta;
    private final double hotThreshold;
    private final long seed;
    private final ConstraintProjection projection;

    /**
     * @param recorded how many distinct epochs the workload holds (device i of the workload for i
     *     in [0, recorded)); devices are drawn from these
     * @param delta the shuffled mode's central δ, in (0, 1)
     * @param hotThreshold ℓ of HMC
     */
    public CentralPrivacyComparison(
            DeviceWorkload workload, int recorded, double delta, double hotThreshold, long seed) {
        if (recorded < 1) {
            throw new IllegalArgumentException("need at least one recorded epoch, got " + recorded);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
        }
        this.workload = workload;
        this.recorded = recorded;
        this.delta = delta;
        this.hotThreshold = hotThreshold;
        this.seed = seed;
        this.projection = new ConstraintProjection(workload.graph());
    }

    /**
     * The local ε₀ of a mode at a target central ε: the central ε itself for the local modes, the
     * planner's largest ε₀ for a shuffled batch of {@code batchSize}.
     */
    public static double epsilon0(Mode mode, double centralEpsilon, long batchSize, double delta) {
        return mode == Mode.SHUFFLED
                ? ShuffledPlanner.largestEpsilon0(batchSize, centralEpsilon, delta)
                : centralEpsilon;
    }

    /**
     * The fleet: {@code devices} epochs drawn uniformly with replacement from the recorded ones by
     * a generator seeded with {@code seed}. Devices that replay the same recorded epoch share its
     * array (read only).
     */
    public long[][] fleet(int devices, long seed) {
        if (devices < 1) {
            throw new IllegalArgumentException("need at least one device, got " + devices);
        }
        long[][] distinct = new long[recorded][];
        for (int r = 0; r < recorded; r++) {
            // A recorded workload ignores the random source; k = 1: the recorded epoch as it is.
            distinct[r] = workload.epoch(r, 1, new SeededRandomSource(seed + r));
        }
        RandomSource random = new SeededRandomSource(seed);
        long[][] epochs = new long[devices][];
        for (int d = 0; d < devices; d++) {
            epochs[d] = distinct[uniform(random, recorded)];
        }
        return epochs;
    }

    /**
     * Every mode at every target central ε for a fleet of {@code devices}, one report per device.
     *
     * @param keys the analyst's keys and the devices' sealer of the shuffled mode
     */
    public List<Row> run(int devices, double[] centralEpsilons, AnalystSide keys, Shuffler shuffler)
            throws Exception {
        return run(devices, centralEpsilons, keys, shuffler, row -> {});
    }

    /** As {@link #run(int, double[], AnalystSide, Shuffler)}, handing each row on as it is made. */
    public List<Row> run(
            int devices,
            double[] centralEpsilons,
            AnalystSide keys,
            Shuffler shuffler,
            Consumer<Row> made)
            throws Exception {
        long[][] epochs = fleet(devices, seed);
        double[] truth = SimulatedReports.meanShares(epochs);
        int methods = workload.graph().methods();
        List<Row> rows = new ArrayList<>();
        for (int e = 0; e < centralEpsilons.length; e++) {
            double target = centralEpsilons[e];
            for (Mode mode : Mode.values()) {
                long started = System.nanoTime();
                // A cell's draws depend on the seed, the fleet, the central ε and the mode only,
                // not on which other cells run.
                RandomSource random =
                        new SeededRandomSource(
                                seed
                                        ^ (0x9E3779B97F4A7C15L * (1 + mode.ordinal()))
                                        ^ Double.doubleToLongBits(target)
                                        ^ ((long) devices << 40));
                double epsilon0 = epsilon0(mode, target, devices, delta);
                PrivacyParameters privacy =
                        mode == Mode.EPSILON_T
                                ? new PrivacyParameters(epsilon0, 1, 1)
                                : new PrivacyParameters(PrivacyMode.USER_LEVEL, epsilon0, 1, 1);
                PartialSum sum;
                double central = epsilon0;
                double rowDelta = 0;
                long batch = 0;
                double[] stages = new double[0];
                if (mode == Mode.SHUFFLED) {
                    long sealing = System.nanoTime();
                    Sent sent = seal(epochs, epsilon0, keys.sealer(), random);
                    long sealed = System.nanoTime();
                    List<EncodedRecord> released = shuffler.shuffle(sent.records(), devices);
                    long shuffled = System.nanoTime();
                    Opened opened = open(released, keys.opener(), methods);
                    stages =
                            new double[] {
                                (sealed - sealing) / 1e9,
                                (shuffled - sealed) / 1e9,
                                (System.nanoTime() - shuffled) / 1e9
                            };
                    if (opened.rejected() > 0
                            || opened.sum().getReports() != devices
                            || !opened.batchSizes().equals(List.of(devices))) {
                        throw new IllegalStateException(
                                "the shuffler released "
                                        + opened.batchSizes()
                                        + " with "
                                        + opened.rejected()
                                        + " rejected, "
                                        + opened.sum().getReports()
                                        + " reports opened, expected one batch of "
                                        + devices);
                    }
                    sum = opened.sum();
                    central = new ShuffleAmplification(devices, epsilon0).centralEpsilon(delta);
                    rowDelta = delta;
                    batch = devices;
                } else {
                    sum = SimulatedReports.sum(privacy, epochs, random, null);
                }
                double[] estimate = new FrequencyEstimator(privacy).estimate(sum).normalized();
                double[] consistent = projection.project(estimate).solution();
                Row row =
                        new Row(
                                workload.name(),
                                methods,
                                devices,
                                target,
                                mode,
                                epsilon0,
                                central,
                                rowDelta,
                                batch,
                                FrequencyMetrics.relativeError(truth, estimate),
                                FrequencyMetrics.relativeError(truth, consistent),
                                FrequencyMetrics.hotMethodCoverage(truth, consistent, hotThreshold),
                                (System.nanoTime() - started) / 1e9,
                                stages);
                rows.add(row);
                made.accept(row);
            }
        }
        return rows;
    }

    /** The analyst's opener and the devices' sealer of the shuffled mode. */
    public record AnalystSide(ReportOpener opener, SealedReports sealer) {}

    /**
     * The shuffled mode's devices: each samples one event of its epoch, reports it through the
     * subset-selection oracle at ε₀ as the device runtime's user-level report, and seals it as the
     * SDK's transport does, with device id {@code device-d} and sequence 1 for the shuffler.
     */
    public Sent seal(long[][] epochs, double epsilon0, SealedReports sealer, RandomSource random)
            throws SealingException {
        int methods = workload.graph().methods();
        SubsetSelection oracle = new SubsetSelection(methods, epsilon0);
        PartialSum sum = new PartialSum(methods);
        FrequencyReport[] reports = new FrequencyReport[epochs.length];
        for (int d = 0; d < epochs.length; d++) {
            int[] one = HypergeometricSampler.sampleMultivariate(random, epochs[d], 1);
            int event = 0;
            while (one[event] == 0) {
                event++;
            }
            int[] subset = oracle.randomize(random, event).clone();
            Arrays.sort(subset);
            sum.addSubset(subset, methods);
            List<Integer> ids = new ArrayList<>(subset.length);
            for (int z : subset) {
                ids.add(z);
            }
            reports[d] =
                    FrequencyReport.newBuilder()
                            .setReportId(new UUID(random.nextLong(), random.nextLong()).toString())
                            .setDeviceId("device-" + d)
                            .setAppVersion(workload.name())
                            .setConfigId(CONFIG_ID)
                            .setK(1)
                            .setCreatedAtMillis(Instant.EPOCH)
                            .setCounts(List.of())
                            .setSequence(1)
                            .setSubset(ids)
                            .setEpsilon(epsilon0)
                            .setT(1)
                            .build();
        }
        // Each device seals its own report; here the X25519 work of all of them is spread over
        // the common pool (the sealer is thread-safe), the draws above stay in device order.
        byte[][] sealed = new byte[reports.length][];
        try {
            IntStream.range(0, reports.length)
                    .parallel()
                    .forEach(
                            d -> {
                                try {
                                    sealed[d] = sealer.seal(reports[d]);
                                } catch (SealingException e) {
                                    throw new IllegalStateException(e);
                                }
                            });
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof SealingException cause) {
                throw cause;
            }
            throw e;
        }
        List<RawRecord> records = new ArrayList<>(epochs.length);
        for (int d = 0; d < reports.length; d++) {
            records.add(
                    new RawRecord(
                            "shuffler-input",
                            0,
                            d,
                            d,
                            reports[d].getDeviceId().getBytes(StandardCharsets.UTF_8),
                            sealed[d]));
        }
        return new Sent(records, sum);
    }

    /**
     * The analyst's side: opens every released part as the frequency job does and sums the subsets
     * of the reports that open and name a distinct method set of ids in [0, |V|).
     */
    public static Opened open(List<EncodedRecord> parts, ReportOpener opener, int methods) {
        ShuffledBatchOpening opening = new ShuffledBatchOpening(opener);
        PartialSum sum = new PartialSum(methods);
        Set<String> batchIds = new HashSet<>();
        List<Integer> sizes = new ArrayList<>();
        int rejected = 0;
        long offset = 0;
        for (EncodedRecord part : parts) {
            ShuffledBatchOpening.Opened batch =
                    opening.open(new RawRecord("shuffled", 0, offset++, 0, part.key, part.value));
            rejected += batch.deadLetters().size();
            for (ReportRecord report : batch.reports()) {
                if (batchIds.add(report.batchId)) {
                    sizes.add(report.batchSize);
                }
                if (!inRange(report.subset, methods)) {
                    rejected++;
                    continue;
                }
                sum.addSubset(report.subset, methods);
            }
        }
        return new Opened(sum, batchIds.size(), sizes, rejected);
    }

    private static boolean inRange(int[] subset, int methods) {
        for (int i = 0; i < subset.length; i++) {
            if (subset[i] < 0 || subset[i] >= methods || (i > 0 && subset[i] <= subset[i - 1])) {
                return false;
            }
        }
        return true;
    }

    /** A uniform int in [0, bound) without modulo bias. */
    private static int uniform(RandomSource random, int bound) {
        long limit = Long.MAX_VALUE - Long.MAX_VALUE % bound;
        long x;
        do {
            x = random.nextLong() >>> 1;
        } while (x >= limit);
        return (int) (x % bound);
    }

    /** The rows as a table, one block per program and fleet size. */
    public static String table(List<Row> rows) {
        StringBuilder out = new StringBuilder();
        String block = null;
        for (Row r : rows) {
            String name = r.program() + "/" + r.devices();
            if (!name.equals(block)) {
                block = name;
                out.append(header(r));
            }
            out.append(line(r));
        }
        return out.toString();
    }

    /** The heading of the block of {@code r}'s program and fleet size. */
    public static String header(Row r) {
        return String.format(
                Locale.ROOT,
                "== %s: |V| = %d, %d devices, one report each%n"
                        + "%-8s %-14s %8s %-22s %9s %9s %7s %8s  %s%n",
                r.program(),
                r.methods(),
                r.devices(),
                "central",
                "mode",
                "eps0",
                "central held (n)",
                "RE(g^)",
                "RE(g*)",
                "HMC g*",
                "seconds",
                "(seal / shuffler job / open)");
    }

    /** One row of the table. */
    public static String line(Row r) {
        String held =
                r.mode() == Mode.SHUFFLED
                        ? String.format(
                                Locale.ROOT,
                                "%.4f @ %.0e (%d)",
                                r.centralEpsilon(),
                                r.delta(),
                                r.batchSize())
                        : String.format(Locale.ROOT, "%.4f @ 0", r.centralEpsilon());
        return String.format(
                Locale.ROOT,
                "%-8.4f %-14s %8.4f %-22s %9.4f %9.4f %7.3f %8.1f%s%n",
                r.targetEpsilon(),
                r.mode().label(),
                r.epsilon0(),
                held,
                r.relativeErrorRaw(),
                r.relativeErrorProjected(),
                r.hotCoverageProjected(),
                r.seconds(),
                r.shuffledSeconds().length == 3
                        ? String.format(
                                Locale.ROOT,
                                "  (%.1f / %.1f / %.1f)",
                                r.shuffledSeconds()[0],
                                r.shuffledSeconds()[1],
                                r.shuffledSeconds()[2])
                        : "");
    }
}
