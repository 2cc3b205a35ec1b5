package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.analysis.instrument.PathProbeInstrumenter;
import dev.fieldprof.analysis.jar.JarContents;
import dev.fieldprof.analysis.model.AppPackages;
import dev.fieldprof.analysis.model.MethodInventory;
import dev.fieldprof.client.PathProbeHandler;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.paths.ArrayBranchTable;
import dev.fieldprof.client.paths.BranchTableText;
import dev.fieldprof.client.paths.CallSitePathEncoder;
import dev.fieldprof.client.paths.CodeLengths;
import dev.fieldprof.client.paths.EdgeCounter;
import dev.fieldprof.client.paths.EdgeModel;
import dev.fieldprof.client.paths.ModelUpdater;
import dev.fieldprof.client.paths.PathEncoder;
import dev.fieldprof.client.paths.PathEventSink;
import dev.fieldprof.client.paths.PathRecording;
import dev.fieldprof.client.paths.PathReportEncoder;
import dev.fieldprof.client.tracing.EdgeModelStore;
import dev.fieldprof.client.tracing.PathTracer;
import dev.fieldprof.schemas.PathReport;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Issues 6 item 5 and 12: path trace sizes and encoder overhead on real libraries, side by side.
 * For each program the jar's own methods get path probes; a seeded workload runs once to be
 * measured (seed 0) and three times as "field" runs (seeds 1-3) from which model versions 1, 2 and
 * 3 are learned in turn (the PathModelJob's ModelUpdater). The measured run's recorded events are
 * then coded with the decodable baselines of {@link PathBaselines} (BLPP, PAP, the strongest fixed
 * code, each charged the same call information) and with both arithmetic formats (version 1, and
 * version 3 which devices write) under the uniform model and the three learned ones, cut into
 * device reports (16 KiB or 65536 events), and version 3 again into 512-byte reports (where the
 * shipped model matters most); each arithmetic row splits its ideal code length into branch bits
 * and call-structure bits beside the run's per-node entropy. Times: the workload on the original
 * jar, on the instrumented jar with tracing off (probe calls only), with the arithmetic tracer on,
 * and with BLPP and PAP run on the same probes ({@link BaselineRuntime}); the running thread's CPU
 * time (robust on a shared machine), median of 9 runs after 60 warm-up runs, in one JVM. The last
 * table prints issue 12's targets, met or missed.
 *
 * <p>Run: {@code java -cp benchmarks.jar:deps dev.fieldprof.benchmarks.paths.PathBenchmarks [scale
 * [programs]]} (scale of the workload rounds, default 1; programs a comma list of commons-lang3,
 * gson, guava, default all).
 */
public final class PathBenchmarks {
    /** Report size of the second table: short reports, where the shipped model matters most. */
    static final int SHORT_REPORT_BYTES = 512;

    /** One program's figures. */
    record Row(
            String name,
            int methods,
            int branchNodes,
            long events,
            PathBaselines.Costs base,
            Coded[] v1,
            Coded[] v3,
            long[] shortReportBytes,
            double baseMs,
            double probesOffMs,
            double arithmeticMs,
            double blppMs,
            double papMs) {

        long invocations() {
            return base.invocations();
        }
    }

    /** One format's coding of the measured run with one model: bytes and where the bits go. */
    record Coded(long bytes, double branchBits, double callBits) {}

    private PathBenchmarks() {}

    public static void main(String[] args) throws Exception {
        double scale = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        List<LibraryProgram> programs = LibraryProgram.all(scale);
        Set<String> only = args.length > 1 ? Set.of(args[1].split(",")) : null;
        Path work = Files.createTempDirectory("fieldprof-paths-bench");
        List<Row> rows = new ArrayList<>();
        for (LibraryProgram p : programs) {
            if (only != null && !only.contains(p.name())) {
                continue;
            }
            rows.add(measure(p, work));
        }
        print(System.out, rows);
    }

    static Row measure(LibraryProgram p, Path work) throws Exception {
        Path jar = p.jar();
        Map<String, Integer> ids =
                MethodInventory.of(JarContents.read(jar), AppPackages.parse(p.packages())).ids();
        PathProbeInstrumenter instrumenter = new PathProbeInstrumenter(ids);
        Path instrumented = work.resolve(p.name() + "-paths.jar");
        PathProbeInstrumenter.Result result =
                instrumenter.instrumentJar(jar, instrumented, ids.size());
        ArrayBranchTable table = BranchTableText.parse(result.branches().toText());

        PathRecording[] runs = new PathRecording[4];
        for (int seed = 0; seed < 4; seed++) {
            runs[seed] = record(instrumented, p, seed, table);
        }
        EdgeModel[] models = new EdgeModel[4];
        models[0] = EdgeModel.uniform(table);
        ModelUpdater updater = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL);
        for (int v = 1; v <= 3; v++) {
            EdgeCounter counts = new EdgeCounter(table);
            runs[v].replay(counts);
            models[v] = updater.next(models[v - 1], counts);
        }
        Coded[] v1 = new Coded[4];
        Coded[] v3 = new Coded[4];
        long[] shortBytes = new long[4];
        for (int v = 0; v <= 3; v++) {
            v1[v] = coded(runs[0], models[v], PathEncoder::new);
            v3[v] = coded(runs[0], models[v], CallSitePathEncoder::new);
            shortBytes[v] =
                    codedBytes(
                            runs[0],
                            models[v],
                            SHORT_REPORT_BYTES,
                            CallSitePathEncoder::new,
                            null,
                            report -> {});
        }
        PathBaselines.Costs base = PathBaselines.measure(instrumenter.cfgs(), ids.size(), runs[0]);

        double baseMs = time(jar, p, null);
        double offMs = time(instrumented, p, null);
        EdgeModelStore store = new EdgeModelStore("bench:" + p.name(), table);
        PathTracer tracer =
                new PathTracer(
                        "bench",
                        "bench:" + p.name(),
                        0,
                        store,
                        report -> {},
                        PathTracer.DEFAULT_MAX_REPORT_BYTES,
                        false);
        double onMs = time(instrumented, p, tracer);
        double blppMs =
                time(
                        instrumented,
                        p,
                        new BaselineRuntime(
                                BaselineRuntime.Kind.BLPP, ids.size(), instrumenter.cfgs()));
        double papMs =
                time(
                        instrumented,
                        p,
                        new BaselineRuntime(
                                BaselineRuntime.Kind.PAP, ids.size(), instrumenter.cfgs()));
        return new Row(
                p.name(),
                ids.size(),
                result.branches().branchNodeCount(),
                runs[0].size(),
                base,
                v1,
                v3,
                shortBytes,
                baseMs,
                offMs,
                onMs,
                blppMs,
                papMs);
    }

    private static Coded coded(
            PathRecording run, EdgeModel model, Function<EdgeModel, PathReportEncoder> format) {
        CodeLengths meter = new CodeLengths();
        long bytes =
                codedBytes(
                        run,
                        model,
                        PathTracer.DEFAULT_MAX_REPORT_BYTES,
                        format,
                        meter,
                        report -> {});
        return new Coded(bytes, meter.branchBits(), meter.callBits());
    }

    /** The run's events, recorded by the tracer in debug mode. */
    static PathRecording record(Path jar, LibraryProgram p, long seed, ArrayBranchTable table)
            throws Exception {
        List<PathReport> reports = new ArrayList<>();
        PathTracer tracer =
                new PathTracer(
                        "bench",
                        "bench:" + p.name(),
                        0,
                        new EdgeModelStore("bench:" + p.name(), table),
                        reports::add,
                        PathTracer.DEFAULT_MAX_REPORT_BYTES,
                        true);
        try (WorkloadLoader loader = new WorkloadLoader(jar)) {
            Method run = p.runMethod(loader);
            PathProbes.install(tracer);
            try {
                run.invoke(null, seed, p.rounds());
            } finally {
                tracer.endEpoch();
                PathProbes.uninstall();
            }
        }
        if (tracer.droppedEvents() != 0 || PathProbes.failures() != 0) {
            throw new IllegalStateException(
                    p.name() + ": dropped " + tracer.droppedEvents() + " probe events");
        }
        PathRecording all = new PathRecording();
        for (PathReport r : reports) {
            ByteBuffer raw = r.getRaw();
            byte[] b = new byte[raw.remaining()];
            raw.duplicate().get(b);
            PathRecording.fromBytes(b).replay(all);
        }
        return all;
    }

    /**
     * Bytes of the recording coded with {@code model} in the current format (version 3), cut into
     * reports as a device cuts them, each report's bytes handed to {@code eachReport}.
     */
    static long codedBytes(
            PathRecording recording,
            EdgeModel model,
            int maxReportBytes,
            Consumer<byte[]> eachReport) {
        return codedBytes(
                recording, model, maxReportBytes, CallSitePathEncoder::new, null, eachReport);
    }

    /** As above in the given format, adding the code lengths to {@code meter} (or null). */
    static long codedBytes(
            PathRecording recording,
            EdgeModel model,
            int maxReportBytes,
            Function<EdgeModel, PathReportEncoder> format,
            CodeLengths meter,
            Consumer<byte[]> eachReport) {
        PathReportEncoder enc = format.apply(model);
        enc.meter(meter);
        long[] total = {0};
        Runnable finish =
                () -> {
                    byte[] report = enc.finishReport();
                    total[0] += report.length;
                    eachReport.accept(report);
                };
        recording.replay(
                new PathEventSink() {
                    @Override
                    public void enter(int methodId) {
                        enc.enterMethod(methodId);
                        cut();
                    }

                    @Override
                    public void branch(int methodId, int blockId, int edgeIndex) {
                        enc.branch(blockId, edgeIndex);
                        cut();
                    }

                    @Override
                    public void exit(int methodId, boolean exceptional) {
                        if (exceptional) {
                            enc.exitExceptionally(methodId);
                        } else {
                            enc.exitMethod(methodId);
                        }
                        cut();
                    }

                    private void cut() {
                        if (enc.codedBytesSoFar() >= maxReportBytes
                                || enc.eventsInReport() >= PathTracer.MAX_REPORT_EVENTS) {
                            finish.run();
                        }
                    }
                });
        if (enc.eventsInReport() > 0) {
            finish.run();
        }
        return total[0];
    }

    // The floor: fewer warm-up runs leave the uninstrumented baseline unwarmed.
    private static final int WARMUP = 60;
    private static final int MEASURED = 9;

    /** Median CPU time of the workload's thread in ms (60 warm-up runs, 9 measured). */
    private static double time(Path jar, LibraryProgram p, PathProbeHandler tracer)
            throws Exception {
        try (WorkloadLoader loader = new WorkloadLoader(jar)) {
            Method run = p.runMethod(loader);
            PathProbes.install(tracer);
            try {
                double[] ms = new double[MEASURED];
                for (int i = 0; i < WARMUP + MEASURED; i++) {
                    double t = WorkloadCpuTime.millis(run, 0L, p.rounds());
                    if (i >= WARMUP) {
                        ms[i - WARMUP] = t;
                    }
                }
                if (PathProbes.failures() != 0
                        || (tracer instanceof PathTracer t && t.droppedEvents() != 0)) {
                    throw new IllegalStateException(p.name() + ": probe events dropped or failed");
                }
                return WorkloadCpuTime.median(ms);
            } finally {
                PathProbes.uninstall();
            }
        }
    }

    static void print(PrintStream out, List<Row> rows) {
        out.println(
                "Path trace size per program (measured run: seed 0), bits per invocation and total"
                        + " bytes; every decodable baseline is charged the same call information");
        out.printf(
                "%-14s %7s %7s %9s %10s %9s | %-18s | %-18s | %-18s | %-18s | %-18s%n",
                "program",
                "methods",
                "nodes",
                "calls",
                "events",
                "decisions",
                "BLPP",
                "PAP (decodable)",
                "fixed code",
                "PAP + v3 calls**",
                "PAP lower bound*");
        for (Row r : rows) {
            PathBaselines.Costs b = r.base();
            out.printf(
                    "%-14s %7d %7d %9d %10d %9d | %s | %s | %s | %s | %s%n",
                    r.name(),
                    r.methods(),
                    r.branchNodes(),
                    r.invocations(),
                    r.events(),
                    b.branchDecisions(),
                    cell(b.blppBits() + b.callBits(), r.invocations()),
                    cell(b.papBits() + b.callBits(), r.invocations()),
                    cell(b.fixedBits() + b.callBits(), r.invocations()),
                    cell(b.papBits() + Math.round(r.v3()[3].callBits()), r.invocations()),
                    cell(b.papLowerBoundBits(), r.invocations()));
        }
        out.println(
                "* not decodable (no delimiter, no call structure): a lower bound only. ** PAP's"
                        + " path bits charged the call-structure bits version 3 pays with M3 (the"
                        + " strictest comparison). Call information charged to each decodable"
                        + " baseline with its fixed code, bits per call:");
        for (Row r : rows) {
            out.printf("  %-14s %.2f%n", r.name(), (double) r.base().callBits() / r.invocations());
        }
        out.println();
        out.println(
                "Arithmetic formats on the same run (16 KiB reports), bits per invocation and"
                    + " bytes; branch / call: ideal code lengths per branch decision and per call");
        out.printf(
                "%-14s %-8s %-18s %-18s %-18s %-18s | %12s%n",
                "program", "format", "uniform", "M1", "M2", "M3", "M3 br / call");
        for (Row r : rows) {
            for (int f = 0; f < 2; f++) {
                Coded[] c = f == 0 ? r.v1() : r.v3();
                long decisions = r.base().branchDecisions();
                out.printf(
                        "%-14s %-8s %s %s %s %s | %5.3f / %5.3f%n",
                        r.name(),
                        f == 0 ? "v1" : "v3",
                        cell(8 * c[0].bytes(), r.invocations()),
                        cell(8 * c[1].bytes(), r.invocations()),
                        cell(8 * c[2].bytes(), r.invocations()),
                        cell(8 * c[3].bytes(), r.invocations()),
                        c[3].branchBits() / Math.max(1, decisions),
                        c[3].callBits() / r.invocations());
            }
        }
        out.println();
        out.printf(
                "Version 3 cut into reports of %d bytes (each report restarts from the model):"
                        + " bits per invocation%n",
                SHORT_REPORT_BYTES);
        out.printf("%-14s %10s %10s %10s %10s%n", "program", "uniform", "M1", "M2", "M3");
        for (Row r : rows) {
            out.printf(
                    "%-14s %10.2f %10.2f %10.2f %10.2f%n",
                    r.name(),
                    8.0 * r.shortReportBytes()[0] / r.invocations(),
                    8.0 * r.shortReportBytes()[1] / r.invocations(),
                    8.0 * r.shortReportBytes()[2] / r.invocations(),
                    8.0 * r.shortReportBytes()[3] / r.invocations());
        }
        out.println();
        out.println(
                "Workload CPU time of the running thread, median ms (overhead against the original"
                        + " jar); the tracer writes format version 3");
        out.printf(
                "%-14s %10s %22s %22s %22s %22s%n",
                "program",
                "original",
                "probes, tracing off",
                "arithmetic tracer",
                "BLPP on the probes",
                "PAP on the probes");
        for (Row r : rows) {
            out.printf(
                    "%-14s %10.1f %12.1f (%+6.0f%%) %12.1f (%+6.0f%%) %12.1f (%+6.0f%%)"
                            + " %12.1f (%+6.0f%%)%n",
                    r.name(),
                    r.baseMs(),
                    r.probesOffMs(),
                    100 * (r.probesOffMs() / r.baseMs() - 1),
                    r.arithmeticMs(),
                    100 * (r.arithmeticMs() / r.baseMs() - 1),
                    r.blppMs(),
                    100 * (r.blppMs() / r.baseMs() - 1),
                    r.papMs(),
                    100 * (r.papMs() / r.baseMs() - 1));
        }
        out.println();
        out.println("Targets of issue 12 (version 3 with M3 against the run's baselines):");
        out.printf(
                "%-14s %34s %18s %26s %16s%n",
                "program",
                "smaller than PAP dec. (fixed/**)",
                "call bits / call",
                "branch bits vs entropy",
                "CPU vs PAP");
        for (Row r : rows) {
            PathBaselines.Costs b = r.base();
            Coded m3 = r.v3()[3];
            double size = 1 - 8.0 * m3.bytes() / (b.papBits() + b.callBits());
            double strict = 1 - 8.0 * m3.bytes() / (b.papBits() + m3.callBits());
            double callPerCall = m3.callBits() / r.invocations();
            double entropy = b.nodeEntropyBits();
            double branchVsEntropy = entropy == 0 ? 0 : m3.branchBits() / entropy - 1;
            double cpu = r.arithmeticMs() / r.papMs();
            out.printf(
                    "%-14s %8.1f%% / %5.1f%% (%-6s) %8.3f (%-6s) %+9.1f%% of %9.0f b (%-6s)"
                            + " %6.2fx (%-6s)%n",
                    r.name(),
                    100 * size,
                    100 * strict,
                    Math.min(size, strict) >= 0.60 ? "met" : "missed",
                    callPerCall,
                    callPerCall <= 0.3 ? "met" : "missed",
                    100 * branchVsEntropy,
                    entropy,
                    branchVsEntropy <= 0.02 ? "met" : "missed",
                    cpu,
                    cpu <= 1.10 ? "met" : "missed");
        }
        out.println(
                "(targets: >= 60% smaller than decodable PAP, <= 0.3 call bits per call, branch"
                        + " bits within 2% of the per-node entropy, CPU <= 1.10x PAP)");
    }

    private static String cell(long bits, long invocations) {
        return String.format("%7.2f b %9d B", (double) bits / invocations, (bits + 7) / 8);
    }
}
