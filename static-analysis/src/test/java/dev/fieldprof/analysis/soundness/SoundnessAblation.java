package dev.fieldprof.analysis.soundness;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.AnalysisResult;
import dev.fieldprof.analysis.FixtureJars;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.World;
import dev.fieldprof.analysis.constraints.PairRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Prints the soundness table with the ablation: the same driven runs checked against the pairs of
 * the published rules (frequency profiling, docs/references.md; closed world), the sound rules in a
 * closed world, and the sound rules as a library (the default). Run from the module directory with
 * the test classpath: {@code java -cp ... dev.fieldprof.analysis.soundness.SoundnessAblation [RUNS
 * CALLS SEED]}.
 */
public final class SoundnessAblation {

    private SoundnessAblation() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 20_260_422L;
        Path work = Files.createTempDirectory("fieldprof-soundness-");
        Path probes = FixtureJars.compile("probes", work.resolve("probes"), null);
        Path driver = SoundnessCheck.compileDriver(work.resolve("driver"), probes);
        Map<String, String[]> programs = new LinkedHashMap<>();
        programs.put(
                "commons-lang3:3",
                new String[] {"org.apache.commons.lang3.StringUtils", "org.apache.commons.lang3"});
        programs.put("gson:2", new String[] {"com.google.gson.Gson", "com.google.gson"});
        programs.put(
                "commons-codec:1",
                new String[] {
                    "org.apache.commons.codec.binary.Base64", "org.apache.commons.codec"
                });
        System.out.println("seed=" + seed + " runs=" + runs + " calls/run=" + calls);
        for (Map.Entry<String, String[]> program : programs.entrySet()) {
            Path jar = SoundnessCheck.jarOf(program.getValue()[0]);
            AnalysisRequest base = AnalysisRequest.of(jar, program.getKey());
            AnalysisResult sound = ProgramAnalyzer.analyze(base.withWorld(World.LIBRARY));
            List<SoundnessCheck.Run> driven =
                    SoundnessCheck.drive(
                            program.getKey(),
                            jar,
                            sound.model(),
                            program.getValue()[1],
                            probes,
                            driver,
                            runs,
                            calls,
                            seed,
                            work);
            Map<String, AnalysisResult> variants = new LinkedHashMap<>();
            variants.put(
                    "paper rules, closed world",
                    ProgramAnalyzer.analyze(
                            base.withWorld(World.APPLICATION).withRules(PairRules.PAPER)));
            variants.put(
                    "sound rules, closed world",
                    ProgramAnalyzer.analyze(base.withWorld(World.APPLICATION)));
            variants.put("sound rules, library (default)", sound);
            for (Map.Entry<String, AnalysisResult> variant : variants.entrySet()) {
                SoundnessCheck.Outcome outcome =
                        SoundnessCheck.check(program.getKey(), variant.getValue(), driven);
                long violatedPairs =
                        outcome.violations().stream()
                                .map(v -> v.left() + v.right())
                                .distinct()
                                .count();
                System.out.println(
                        outcome.row()
                                + " violated-pairs="
                                + violatedPairs
                                + "  ["
                                + variant.getKey()
                                + "]");
                // Why the default analysis drops each violated pair: for rule 2, the reason its
                // m' has unknown callers; for rule 1, an exit before the call (an implicit
                // exception), a possibly-null receiver or an open target set.
                Map<String, Long> causes =
                        outcome.violations().stream()
                                .map(v -> v.rule() + v.left() + "\u0000" + v.right())
                                .distinct()
                                .map(
                                        key -> {
                                            if (key.startsWith("DOMINATING_CALL_SITE")) {
                                                return "rule 1: exit, null receiver or open"
                                                        + " dispatch before the call";
                                            }
                                            String left =
                                                    key.substring(
                                                            "ONLY_CALL_SITE".length(),
                                                            key.indexOf('\u0000'));
                                            return "rule 2: "
                                                    + sound.unknownCallers()
                                                            .getOrDefault(
                                                                    left,
                                                                    "another call site or a"
                                                                            + " loop");
                                        })
                                .collect(
                                        Collectors.groupingBy(
                                                c -> c,
                                                java.util.TreeMap::new,
                                                Collectors.counting()));
                causes.forEach((cause, n) -> System.out.println("    cause: " + n + " x " + cause));
                Map<String, List<SoundnessCheck.Violation>> byPair =
                        outcome.violations().stream()
                                .collect(
                                        Collectors.groupingBy(
                                                v -> v.rule() + " " + v.left() + " <= " + v.right(),
                                                LinkedHashMap::new,
                                                Collectors.toList()));
                byPair.entrySet().stream()
                        .limit(Integer.getInteger("fieldprof.showViolations", 8))
                        .forEach(
                                e ->
                                        System.out.println(
                                                "    "
                                                        + e.getKey()
                                                        + "  (runs: "
                                                        + e.getValue().size()
                                                        + ", e.g. "
                                                        + e.getValue().get(0).leftCount()
                                                        + " > "
                                                        + e.getValue().get(0).rightCount()
                                                        + ")"));
            }
        }
    }
}
