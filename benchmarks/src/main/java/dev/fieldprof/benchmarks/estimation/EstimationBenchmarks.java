package dev.fieldprof.benchmarks.estimation;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * One command for the estimation figures, printed side by side: decode + validate + aggregate per
 * core at |V| = 2,000 and 10,000 (JMH, no Kafka), the job's sustained rate through the embedded
 * broker and MiniCluster at |V| = 2,000 with exactly-once, and the raw Kafka produce and consume
 * rates of the same bytes.
 *
 * <pre>
 * mvn -B -q -o -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/cp.txt) \
 *     dev.fieldprof.benchmarks.estimation.EstimationBenchmarks [--quick] [--reports N]
 * </pre>
 */
public final class EstimationBenchmarks {
    private EstimationBenchmarks() {}

    public static void main(String[] args) throws Exception {
        boolean quick = Arrays.asList(args).contains("--quick");
        int reports = 40_000;
        int at = Arrays.asList(args).indexOf("--reports");
        if (at >= 0) {
            reports = Integer.parseInt(args[at + 1]);
        }
        OptionsBuilder builder = new OptionsBuilder();
        builder.include(IngestBenchmark.class.getName())
                .verbosity(VerboseMode.SILENT)
                .shouldFailOnError(true);
        if (quick) {
            builder.warmupIterations(1).measurementIterations(2);
        }
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Collection<RunResult> results = new Runner(builder.build()).run();
        Map<String, Double> cpuRates = new LinkedHashMap<>();
        for (int methods : new int[] {2_000, 10_000}) {
            cpuRates.put(
                    Integer.toString(methods),
                    IngestCpuTime.reportsPerCpuSecond(methods, quick ? 2_000 : 10_000, 5));
        }

        PipelineThroughput.Figures pipeline = PipelineThroughput.run(2_000, reports, 2);

        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();

        System.out.printf(
                Locale.ROOT,
                "== Frequency reports: decode + validate + aggregate, one core (no Kafka);"
                        + " load average %.1f before, %.1f after%n",
                loadBefore,
                loadAfter);
        System.out.printf(
                Locale.ROOT,
                "  %-8s %28s %26s%n",
                "|V|",
                "JMH wall clock (reports/s)",
                "thread CPU time (reports/s)");
        for (RunResult result : results) {
            var score = result.getPrimaryResult();
            String methods = result.getParams().getParam("methods");
            System.out.printf(
                    Locale.ROOT,
                    "  %-8s %17.0f ± %8.0f %26.0f%n",
                    methods,
                    score.getScore(),
                    Double.isNaN(score.getScoreError()) ? 0 : score.getScoreError(),
                    cpuRates.get(methods));
        }
        System.out.printf(
                Locale.ROOT,
                "== End to end, |V| = %d, %d reports (%.1f MB), 2 partitions, exactly-once,"
                        + " checkpoints every 1 s, %d cores%n",
                pipeline.methods(),
                pipeline.reports(),
                pipeline.megabytes(),
                Runtime.getRuntime().availableProcessors());
        System.out.printf(
                Locale.ROOT,
                "  %-46s %10.0f reports/s%n",
                "raw Kafka produce (acks=all)",
                pipeline.produceRate());
        System.out.printf(
                Locale.ROOT,
                "  %-46s %10.0f reports/s%n",
                "raw Kafka consume (read_committed)",
                pipeline.consumeRate());
        System.out.printf(
                Locale.ROOT,
                "  %-46s %10.0f reports/s%n",
                "FrequencyEstimationJob (window to window)",
                pipeline.jobRate());
        System.out.printf(
                Locale.ROOT,
                "  %-46s %10.1f s%n",
                "job start to first committed estimate",
                pipeline.secondsToFirstEstimate());
        // The whole input over the time from submission to the last estimate being readable:
        // start-up and the last checkpoint's commit included, so a floor of the job's rate.
        System.out.printf(
                Locale.ROOT,
                "  %-46s %10.1f s = %.0f reports/s%n",
                "job start to final committed estimate",
                pipeline.secondsToFinalEstimate(),
                pipeline.inputReports() / pipeline.secondsToFinalEstimate());
    }
}
