package dev.fieldprof.benchmarks.client;

import dev.fieldprof.ldp.PrivacyParameters;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * One command for the client-side figures, printed side by side: randomizing one report (exact vs
 * naive per-event vs normal approximation), the exact worst-case privacy-loss ratio of the normal
 * approximation on a small case, and ns per counted event on one and two threads against an
 * uninstrumented loop.
 *
 * <pre>
 * mvn -B -q -o -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/cp.txt) \
 *     dev.fieldprof.benchmarks.client.ClientBenchmarks [--quick]
 * </pre>
 */
public final class ClientBenchmarks {
    private ClientBenchmarks() {}

    public static void main(String[] args) throws Exception {
        boolean quick = Arrays.asList(args).contains("--quick");
        OptionsBuilder builder = new OptionsBuilder();
        builder.include(RandomizerBenchmark.class.getName())
                .include(CountingBenchmark.class.getName())
                .verbosity(VerboseMode.SILENT)
                .shouldFailOnError(true);
        if (quick) {
            builder.warmupIterations(1).measurementIterations(2);
        }
        Options options = builder.build();
        Collection<RunResult> results = new Runner(options).run();
        Map<String, Double> cpu = new TreeMap<>(CpuTime.randomizers());
        cpu.putAll(CpuTime.counting());
        Map<String, RunResult> byName = new TreeMap<>();
        for (RunResult result : results) {
            String label = result.getParams().getBenchmark();
            byName.put(label.substring(label.lastIndexOf('.') + 1), result);
        }

        System.out.printf(
                Locale.ROOT,
                "  %-50s %-28s %16s%n",
                "(columns)",
                "JMH wall-clock ± 99.9% CI",
                "CPU time per op");
        System.out.println(
                "== Randomizing one report: |V| = 10,000, k = 50,000, eps = ln 9, t = 10");
        row(byName, cpu, "exactChaCha20Random", "exact O(|V|), secure ChaCha20 (the SDK)");
        row(byName, cpu, "exactSecureRandom", "exact O(|V|), secure JDK DRBG");
        row(byName, cpu, "exactSeededRandom", "exact O(|V|), seeded SplittableRandom");
        row(byName, cpu, "normalApproximation", "normal approximation (paper 4.1; not offered)");
        row(byName, cpu, "naivePerEvent", "naive per-event O(k|V|) (paper 4.1)");
        row(byName, cpu, "sampleKOfEpoch", "exact k-sample of a 2.5M-event epoch (ChaCha20)");

        System.out.println();
        System.out.println(
                "== Worst-case privacy loss, exact audit: d = 2, k = 5, eps = ln 9, t = 1");
        PrivacyParameters small = new PrivacyParameters(Math.log(9), 1, 5);
        printWorst("exact randomizer", NormalApproximationAudit.exact(small, 2), small);
        printWorst(
                "normal approximation",
                NormalApproximationAudit.normalApproximation(small, 2),
                small);

        System.out.println();
        System.out.println("== Counting: ns per method call, Probes.enter vs uninstrumented");
        row(byName, cpu, "baselineOneThread", "uninstrumented, 1 thread");
        row(byName, cpu, "countedOneThread", "Probes.enter, 1 thread");
        row(byName, cpu, "baselineTwoThreads", "uninstrumented, 2 threads");
        row(byName, cpu, "countedTwoThreads", "Probes.enter, 2 threads");
        System.out.println(
                "(2-thread figures are the average time per call on each thread; the machine has "
                        + Runtime.getRuntime().availableProcessors()
                        + " cores)");
    }

    private static void row(
            Map<String, RunResult> results, Map<String, Double> cpu, String name, String label) {
        RunResult result = results.get(name);
        String wall = "not run";
        String unit = "";
        if (result != null) {
            var score = result.getPrimaryResult();
            unit = score.getScoreUnit();
            wall =
                    String.format(
                            Locale.ROOT,
                            "%12.3f ± %-9.3f %s",
                            score.getScore(),
                            Double.isNaN(score.getScoreError()) ? 0 : score.getScoreError(),
                            unit);
        }
        Double cpuTime = cpu.get(name);
        String cpuText =
                cpuTime == null
                        ? "-"
                        : String.format(
                                Locale.ROOT,
                                "%10.3f %s",
                                cpuTime,
                                unit.startsWith("ns") ? "ns" : "us");
        System.out.printf(Locale.ROOT, "  %-50s %-28s %16s%n", label, wall, cpuText);
    }

    private static void printWorst(
            String label, NormalApproximationAudit.Worst worst, PrivacyParameters parameters) {
        String ratio =
                Double.isInfinite(worst.ratio())
                        ? "infinite (an output possible under F is impossible under F')"
                        : String.format(Locale.ROOT, "%.4f", worst.ratio());
        System.out.printf(
                Locale.ROOT,
                "  %-22s max ratio %s vs bound e^eps = %.4f%s%n",
                label,
                ratio,
                parameters.bound(),
                worst.f() == null
                        ? ""
                        : String.format(
                                " at F=%s F'=%s Z=%s",
                                Arrays.toString(worst.f()),
                                Arrays.toString(worst.fPrime()),
                                Arrays.toString(worst.z())));
    }
}
