package dev.fieldprof.benchmarks.accuracy;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.client.transport.kafka.SealedReports;
import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.estimation.evaluation.RecordedWorkload;
import dev.fieldprof.runtime.EmbeddedFlink;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.sealing.AnalystKeys;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints the table of {@link CentralPrivacyComparison}: the three privacy modes at equal central ε
 * on the accuracy study's recorded programs, for each fleet size, the shuffled mode through the
 * real {@code ShufflerJob} on an embedded MiniCluster. Usage in benchmarks/README.md, "The three
 * privacy modes at equal central privacy".
 *
 * <pre>
 * java -Xmx3g -cp "$CP" dev.fieldprof.benchmarks.accuracy.CentralModes \
 *   [--dir benchmarks/target/accuracy] [--programs commons-lang3,gson,commons-codec,notes] \
 *   [--devices 10000,100000] [--epsilons 1,ln3,ln9] [--delta 1e-6] [--seed 1] [--parallelism 1]
 * </pre>
 */
public final class CentralModes {
    private static final List<String> KNOWN =
            List.of(
                    "--dir",
                    "--programs",
                    "--devices",
                    "--epsilons",
                    "--delta",
                    "--seed",
                    "--parallelism");

    private CentralModes() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        Path dir = Paths.get(options.getOrDefault("--dir", "benchmarks/target/accuracy"));
        List<String> programs =
                List.of(
                        options.getOrDefault("--programs", "commons-lang3,gson,commons-codec,notes")
                                .split(","));
        int[] fleets =
                Arrays.stream(options.getOrDefault("--devices", "10000,100000").split(","))
                        .mapToInt(s -> Integer.parseInt(s.strip()))
                        .toArray();
        double[] epsilons =
                Arrays.stream(options.getOrDefault("--epsilons", "1,ln3,ln9").split(","))
                        .mapToDouble(CentralModes::epsilon)
                        .toArray();
        double delta = Double.parseDouble(options.getOrDefault("--delta", "1e-6"));
        long seed = Long.parseLong(options.getOrDefault("--seed", "1"));
        int parallelism = Integer.parseInt(options.getOrDefault("--parallelism", "1"));

        AnalystKeys keys = AnalystKeys.generate();
        Path publicKeyset = Files.createTempFile("fieldprof-analyst-public", ".json");
        Files.writeString(publicKeyset, keys.publicKeysetJson(), StandardCharsets.UTF_8);
        CentralPrivacyComparison.AnalystSide analyst =
                new CentralPrivacyComparison.AnalystSide(
                        keys.opener(),
                        new SealedReports(CentralPrivacyComparison.CONFIG_ID, publicKeyset));
        System.out.printf(
                Locale.ROOT,
                "== The three privacy modes at equal central epsilon (shuffled: delta %.0e, one"
                        + " batch of all devices); seed %d; %d cores; load average %.2f%n",
                delta,
                seed,
                Runtime.getRuntime().availableProcessors(),
                load());
        List<CentralPrivacyComparison.Row> all = new ArrayList<>();
        try (EmbeddedFlink flink = EmbeddedFlink.builder().taskSlots(parallelism).start()) {
            MiniClusterShuffler shuffler = new MiniClusterShuffler(flink, parallelism);
            for (String program : programs) {
                ProgramModel model = ProgramModels.read(dir.resolve(program + ".model"));
                ConstraintGraph graph = ConstraintGraph.of(model);
                List<long[]> runs =
                        RecordedWorkload.readRuns(
                                dir.resolve(program + "-runs.csv"), graph.methods());
                RecordedWorkload workload =
                        new RecordedWorkload(model.getAppVersion(), graph, runs);
                CentralPrivacyComparison comparison =
                        new CentralPrivacyComparison(workload, runs.size(), delta, 0.25, seed);
                for (int devices : fleets) {
                    System.out.printf(
                            Locale.ROOT,
                            "(%d recorded devices resampled to %d with seed %d; load average"
                                    + " %.2f)%n",
                            runs.size(),
                            devices,
                            seed,
                            load());
                    boolean[] first = {true};
                    all.addAll(
                            comparison.run(
                                    devices,
                                    epsilons,
                                    analyst,
                                    shuffler,
                                    row -> {
                                        if (first[0]) {
                                            System.out.print(CentralPrivacyComparison.header(row));
                                            first[0] = false;
                                        }
                                        System.out.print(CentralPrivacyComparison.line(row));
                                        System.out.flush();
                                    }));
                }
            }
        } finally {
            Files.deleteIfExists(publicKeyset);
        }
        System.out.printf(Locale.ROOT, "(load average %.2f at the end)%n", load());
        System.out.print(summary(all));
    }

    /** Per program and fleet: which mode has the smallest RE(g*) at each central ε. */
    static String summary(List<CentralPrivacyComparison.Row> rows) {
        StringBuilder out = new StringBuilder("== Smallest RE(g*) per cell\n");
        Map<String, CentralPrivacyComparison.Row> best = new LinkedHashMap<>();
        for (CentralPrivacyComparison.Row r : rows) {
            String cell =
                    String.format(
                            Locale.ROOT,
                            "%-22s %7d  central %.4f",
                            r.program(),
                            r.devices(),
                            r.targetEpsilon());
            CentralPrivacyComparison.Row b = best.get(cell);
            if (b == null || r.relativeErrorProjected() < b.relativeErrorProjected()) {
                best.put(cell, r);
            }
        }
        best.forEach(
                (cell, r) ->
                        out.append(
                                String.format(
                                        Locale.ROOT,
                                        "%s: %-14s RE(g*) %.4f%n",
                                        cell,
                                        r.mode().label(),
                                        r.relativeErrorProjected())));
        return out.toString();
    }

    private static double epsilon(String text) {
        String t = text.strip();
        if (t.startsWith("ln")) {
            return Math.log(Double.parseDouble(t.substring(2)));
        }
        return Double.parseDouble(t);
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!KNOWN.contains(args[i]) || i + 1 == args.length) {
                throw new IllegalArgumentException(
                        "usage: CentralModes [--dir DIR] [--programs a,b] [--devices 10000,100000]"
                                + " [--epsilons 1,ln3,ln9] [--delta 1e-6] [--seed S]"
                                + " [--parallelism P]; got "
                                + args[i]);
            }
            options.put(args[i], args[++i]);
        }
        return options;
    }
}
