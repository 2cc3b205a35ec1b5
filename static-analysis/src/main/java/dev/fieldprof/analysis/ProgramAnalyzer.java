package dev.fieldprof.analysis;

import dev.fieldprof.analysis.constraints.ExceptionFlow;
import dev.fieldprof.analysis.constraints.OrderPairs;
import dev.fieldprof.analysis.constraints.UnknownCallers;
import dev.fieldprof.analysis.phases.Phase;
import dev.fieldprof.analysis.phases.PhaseMeter;
import dev.fieldprof.analysis.soot.CallSiteFacts;
import dev.fieldprof.analysis.soot.MethodFacts;
import dev.fieldprof.analysis.soot.ProgramFacts;
import dev.fieldprof.analysis.soot.SootProgramLoader;
import dev.fieldprof.bytecode.CallGraph;
import dev.fieldprof.bytecode.MethodSignatures;
import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.cfg.CfgBuilder;
import dev.fieldprof.bytecode.jar.BytecodeScan;
import dev.fieldprof.bytecode.jar.InvalidJarException;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.MethodInventory;
import dev.fieldprof.bytecode.model.ModelStructure;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PairRule;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * From a jar to a program model: V (the application methods with bytecode, by signature), the order
 * order pairs (frequency profiling, docs/references.md), the call graph and chains, bytecode CFGs
 * and the figures of the run. Unreadable classes, bodies Soot cannot build and missing dependencies
 * are skipped with a reason; the rest is analysed.
 */
public final class ProgramAnalyzer {

    private ProgramAnalyzer() {}

    /** Runs the whole analysis; fails only when the jar itself is unusable. */
    public static AnalysisResult analyze(AnalysisRequest request) {
        long start = System.nanoTime();
        long cpuStart = PhaseMeter.processCpuNanos();
        long threadCpuStart = PhaseMeter.threadCpuNanos();
        PhaseMeter meter = new PhaseMeter();
        List<Phase> phases = new ArrayList<>();
        Map<String, String> skipped = new TreeMap<>();

        JarContents jar = JarContents.read(request.jar());
        List<Path> classpath = new ArrayList<>();
        for (Path entry : request.classpath()) {
            if (Files.exists(entry)) {
                classpath.add(entry);
            } else {
                skipped.put(entry.toString(), "classpath entry not found");
            }
        }
        BytecodeScan scan = BytecodeScan.of(jar, request.appPackages());
        scan.corruptClasses().forEach(skipped::put);
        if (scan.applicationClasses().isEmpty()) {
            throw new InvalidJarException(
                    "no readable application classes in "
                            + request.jar()
                            + (request.appPackages().prefixes().isEmpty()
                                    ? ""
                                    : " under packages " + request.appPackages().prefixes()));
        }
        MethodInventory inventory = MethodInventory.of(jar, request.appPackages());
        List<String> v = inventory.signatures();
        Map<String, Integer> ids = inventory.ids();
        boolean library = isLibrary(request.world(), jar.manifest());
        phases.add(meter.stop("read"));

        ProgramFacts facts;
        Path sootInput = null;
        try {
            sootInput = scan.corruptClasses().isEmpty() ? null : validClassesDir(jar, scan);
            facts =
                    SootProgramLoader.load(
                            new SootProgramLoader.Request(
                                    sootInput == null ? request.jar() : sootInput,
                                    classpath,
                                    scan.applicationClasses(),
                                    scan.lambdaInterfaces(),
                                    scan.sealedTypes(),
                                    library,
                                    scan.usesProxies()));
        } finally {
            deleteTree(sootInput);
        }
        phases.addAll(facts.phases());
        meter.start();
        facts.skipped().forEach(skipped::putIfAbsent);
        for (String signature : v) {
            if (!facts.methods().containsKey(signature) && !skipped.containsKey(signature)) {
                skipped.put(signature, "no Soot body: no pairs for this method");
            }
        }

        UnknownCallers unknown = UnknownCallers.compute(facts, scan, library, request.rules());
        ExceptionFlow flow = ExceptionFlow.analyze(facts);
        List<OrderPairs.Pair> found = OrderPairs.find(facts, flow, unknown, request.rules());
        List<OrderPair> pairs = new ArrayList<>();
        int dominating = 0;
        int only = 0;
        for (OrderPairs.Pair pair : found) {
            Integer left = ids.get(pair.left());
            Integer right = ids.get(pair.right());
            if (left == null || right == null) {
                continue;
            }
            pairs.add(
                    OrderPair.newBuilder()
                            .setLeft(left)
                            .setRight(right)
                            .setRule(pair.rule())
                            .build());
            if (pair.rule() == PairRule.DOMINATING_CALL_SITE) {
                dominating++;
            } else {
                only++;
            }
        }
        pairs.sort(
                Comparator.comparingInt(OrderPair::getLeft)
                        .thenComparingInt(OrderPair::getRight)
                        .thenComparing(OrderPair::getRule));
        phases.add(meter.stop("algorithm1"));

        List<Set<Integer>> callees = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            callees.add(new TreeSet<>());
        }
        int callSites = 0;
        long statements = 0;
        for (MethodFacts method : facts.methods().values()) {
            Integer caller = ids.get(method.signature());
            statements += method.statements();
            callSites += method.callSites().size();
            if (caller == null) {
                continue;
            }
            for (CallSiteFacts site : method.callSites()) {
                for (String target : site.targets()) {
                    Integer callee = ids.get(target);
                    if (callee != null) {
                        callees.get(caller).add(callee);
                    }
                }
            }
        }
        int[][] edges = new int[v.size()][];
        for (int i = 0; i < v.size(); i++) {
            edges[i] = callees.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        CallGraph callGraph = new CallGraph(edges);
        List<int[]> chains = callGraph.chains(request.maxChainDepth(), request.maxChains());
        phases.add(meter.stop("callGraph"));

        List<BytecodeCfg> cfgs = cfgs(jar, v, skipped);
        phases.add(meter.stop("cfg"));

        Map<String, Double> stats = new TreeMap<>();
        stats.put("methods", (double) v.size());
        stats.put("methods.analysed", (double) facts.methods().size());
        stats.put("methods.unknownCallers", (double) unknown.reasons().size());
        stats.put("methods.throwFree", (double) flow.throwFree().size());
        stats.put("jimpleStatements", (double) statements);
        stats.put("pairs", (double) pairs.size());
        stats.put("pairs.dominatingCallSite", (double) dominating);
        stats.put("pairs.onlyCallSite", (double) only);
        stats.put("callSites", (double) callSites);
        stats.put("callGraph.edges", (double) callGraph.edgeCount());
        stats.put("callGraph.roots", (double) callGraph.roots().size());
        stats.put("callChains", (double) chains.size());
        stats.put("cfg.blocks", (double) cfgs.stream().mapToInt(c -> c.blocks().size()).sum());
        stats.put("cfg.edges", (double) cfgs.stream().mapToInt(c -> c.edges().size()).sum());
        stats.put("classes.application", (double) scan.applicationClasses().size());
        stats.put("skipped", (double) skipped.size());
        stats.put("skipped.corruptClasses", (double) scan.corruptClasses().size());
        stats.put("missingClasses", (double) facts.missingClasses().size());
        stats.put("library", library ? 1.0 : 0.0);
        double algorithmSeconds = 0;
        double algorithmThreadCpu = 0;
        for (Phase phase : phases) {
            stats.put("seconds." + phase.name(), phase.wallSeconds());
            if (phase.name().equals("soot.facts") || phase.name().equals("algorithm1")) {
                algorithmSeconds += phase.wallSeconds();
                algorithmThreadCpu += phase.threadCpuSeconds();
            }
        }
        stats.put("seconds.total", since(start));
        stats.put(
                "algorithm1.secondsPer100kStatements",
                statements == 0 ? 0.0 : algorithmSeconds * 100_000 / statements);
        // The analysing thread's CPU alone: what the algorithm costs without the collector's and
        // the compiler's threads, which a loaded machine's wall clock mixes in. NaN (left out of
        // the stats) where the JVM does not measure thread CPU time.
        if (!Double.isNaN(algorithmThreadCpu)) {
            stats.put(
                    "algorithm1.threadCpuSecondsPer100kStatements",
                    statements == 0 ? 0.0 : algorithmThreadCpu * 100_000 / statements);
        }

        ProgramModel model =
                ProgramModels.build(
                        request.appVersion(),
                        Instant.now(),
                        v,
                        pairs,
                        ProgramModels.privacyConfig(
                                request.configId(),
                                request.epsilon(),
                                request.t(),
                                request.k(),
                                v.size()),
                        stats);
        model =
                ModelStructure.attach(
                        model, library, callGraph, chains, cfgs, unknown.reasons(), skipped);
        phases.add(meter.stop("model"));
        phases.add(total(phases, start, cpuStart, threadCpuStart));
        return new AnalysisResult(
                model,
                callGraph,
                chains,
                cfgs,
                unknown.reasons(),
                skipped,
                new ArrayList<>(facts.missingClasses()),
                library,
                phases);
    }

    /**
     * The whole run: its wall, CPU and thread CPU time, the highest phase peak, the heap in use at
     * the end.
     */
    private static Phase total(
            List<Phase> phases, long startNanos, long cpuStartNanos, long threadCpuStartNanos) {
        double peak = 0;
        for (Phase phase : phases) {
            peak = Math.max(peak, phase.heapPeakMb());
        }
        return new Phase(
                "total",
                since(startNanos),
                PhaseMeter.seconds(cpuStartNanos, PhaseMeter.processCpuNanos()),
                PhaseMeter.seconds(threadCpuStartNanos, PhaseMeter.threadCpuNanos()),
                peak,
                phases.get(phases.size() - 1).heapUsedMb());
    }

    private static boolean isLibrary(World world, Manifest manifest) {
        return switch (world) {
            case LIBRARY -> true;
            case APPLICATION -> false;
            case AUTO ->
                    manifest == null
                            || manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS)
                                    == null;
        };
    }

    private static List<BytecodeCfg> cfgs(
            JarContents jar, List<String> v, Map<String, String> skipped) {
        Map<String, Set<String>> byClass = new HashMap<>();
        for (String signature : v) {
            byClass.computeIfAbsent(
                            MethodSignatures.declaringClass(signature).replace('.', '/'),
                            k -> new HashSet<>())
                    .add(signature);
        }
        Map<String, BytecodeCfg> all = new HashMap<>();
        for (Map.Entry<String, Set<String>> entry : byClass.entrySet()) {
            try {
                all.putAll(
                        CfgBuilder.forClass(jar.classes().get(entry.getKey()), entry.getValue()));
            } catch (RuntimeException e) {
                skipped.putIfAbsent(
                        entry.getKey().replace('/', '.'),
                        "no CFG: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        List<BytecodeCfg> out = new ArrayList<>(v.size());
        for (String signature : v) {
            BytecodeCfg cfg = all.get(signature);
            out.add(
                    cfg != null
                            ? cfg
                            : new BytecodeCfg(
                                    signature, List.of(), List.of(), List.of(), List.of(),
                                    List.of()));
        }
        return out;
    }

    /** A directory with the jar's readable classes, so one corrupt class cannot stop Soot. */
    private static Path validClassesDir(JarContents jar, BytecodeScan scan) {
        try {
            Path dir = Files.createTempDirectory("fieldprof-classes-");
            for (Map.Entry<String, byte[]> entry : jar.classes().entrySet()) {
                if (scan.corruptClasses().containsKey(entry.getKey().replace('/', '.'))) {
                    continue;
                }
                Path file = dir.resolve(entry.getKey() + ".class");
                Files.createDirectories(file.getParent());
                Files.write(file, entry.getValue());
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage classes for Soot: " + e.getMessage(), e);
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder())
                    .forEach(
                            p -> {
                                try {
                                    Files.deleteIfExists(p);
                                } catch (IOException ignored) {
                                    // temporary files: best effort
                                }
                            });
        } catch (IOException ignored) {
            // best effort
        }
    }

    private static double since(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
