package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.analysis.instrument.PathProbeInstrumenter;
import dev.fieldprof.analysis.jar.JarContents;
import dev.fieldprof.analysis.model.AppPackages;
import dev.fieldprof.analysis.model.MethodInventory;
import dev.fieldprof.client.PathProbeHandler;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.paths.ArrayBranchTable;
import dev.fieldprof.client.paths.BranchTableText;
import dev.fieldprof.client.paths.EdgeCounter;
import dev.fieldprof.client.paths.EdgeModel;
import dev.fieldprof.client.paths.ModelUpdater;
import dev.fieldprof.client.paths.PathEncoder;
import dev.fieldprof.client.paths.PathEventSink;
import dev.fieldprof.client.paths.PathRecording;
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

/**
 * Issue 6 item 5: path trace sizes and encoder overhead on real libraries, side by side. For each
 * program the jar's own methods get path probes; a seeded workload runs once to be measured (seed
 * 0) and three times as "field" runs (seeds 1-3) from which model versions 1, 2 and 3 are learned
 * in turn (the PathModelJob's ModelUpdater). The measured run's recorded events are then coded with
 * BLPP, PAP ({@link PathBaselines}) and our arithmetic coder with the uniform model and the three
 * learned ones, cut into device reports (16 KiB or 65536 events), and again into 512-byte reports
 * (where the shipped model matters most). Times: the workload on the original jar, on the
 * instrumented jar with tracing off (probe calls only), with the arithmetic tracer on, and with
 * BLPP and PAP run on the same probes ({@link BaselineRuntime}); the running thread's CPU time
 * (robust on a shared machine), median of 9 runs after 15 warm-up runs, in one JVM.
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
            long invocations,
            long events,
            long blppBits,
            long papBits,
            long pap64Bits,
            long[] arithmeticBytes,
            long[] shortReportBytes,
            double baseMs,
            double probesOffMs,
            double arithmeticMs,
            double blppMs,
            double papMs) {}

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
        long[] bytes = new long[4];
        long[] shortBytes = new long[4];
        for (int v = 0; v <= 3; v++) {
            bytes[v] = codedBytes(runs[0], models[v], PathTracer.DEFAULT_MAX_REPORT_BYTES);
            shortBytes[v] = codedBytes(runs[0], models[v], SHORT_REPORT_BYTES);
        }
        PathBaselines.Costs base = PathBaselines.measure(instrumenter.cfgs(), runs[0]);

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
                base.invocations(),
                runs[0].size(),
                base.blppBits(),
                base.papBits(),
                base.pap64Bits(),
                bytes,
                shortBytes,
                baseMs,
                offMs,
                onMs,
                blppMs,
                papMs);
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

    /** Bytes of the recording coded with {@code model}, cut into reports as a device cuts them. */
    static long codedBytes(PathRecording recording, EdgeModel model, int maxReportBytes) {
        return codedBytes(recording, model, maxReportBytes, report -> {});
    }

    /** As above, handing every finished report's bytes to {@code eachReport}. */
    static long codedBytes(
            PathRecording recording,
            EdgeModel model,
            int maxReportBytes,
            Consumer<byte[]> eachReport) {
        PathEncoder enc = new PathEncoder(model);
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

    private static final int WARMUP = 15;
    private static final int MEASURED = 9;

    /** Median CPU time of the workload's thread in ms (15 warm-up runs, 9 measured). */
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
                "Path trace size per program (measured run: seed 0), bits per invocation and"
                        + " total bytes");
        out.printf(
                "%-14s %7s %7s %9s %10s | %-18s | %-18s | %-18s | %-18s | %-18s | %-18s"
                        + " | %-18s%n",
                "program",
                "methods",
                "nodes",
                "calls",
                "events",
                "BLPP",
                "PAP (64-bit)",
                "PAP (min bits)",
                "arith uniform",
                "arith M1",
                "arith M2",
                "arith M3");
        for (Row r : rows) {
            out.printf(
                    "%-14s %7d %7d %9d %10d | %s | %s | %s | %s | %s | %s | %s%n",
                    r.name(),
                    r.methods(),
                    r.branchNodes(),
                    r.invocations(),
                    r.events(),
                    cell(r.blppBits(), r.invocations()),
                    cell(r.pap64Bits(), r.invocations()),
                    cell(r.papBits(), r.invocations()),
                    cell(8 * r.arithmeticBytes()[0], r.invocations()),
                    cell(8 * r.arithmeticBytes()[1], r.invocations()),
                    cell(8 * r.arithmeticBytes()[2], r.invocations()),
                    cell(8 * r.arithmeticBytes()[3], r.invocations()));
        }
        out.println();
        out.printf(
                "Same run cut into reports of %d bytes (each report restarts from the model):"
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
                        + " jar)");
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
        out.println(
                "Arithmetic after 3 updates, trace bytes smaller than each baseline by (the"
                        + " arithmetic stream also codes every call and exit, which BLPP and PAP"
                        + " are not charged for):");
        for (Row r : rows) {
            double m3 = 8.0 * r.arithmeticBytes()[3];
            out.printf(
                    "%-14s %6.1f%% against PAP (64-bit), %6.1f%% against PAP (min bits),"
                            + " %6.1f%% against BLPP (negative: larger)%n",
                    r.name(),
                    100 * (1 - m3 / r.pap64Bits()),
                    100 * (1 - m3 / r.papBits()),
                    100 * (1 - m3 / r.blppBits()));
        }
    }

    private static String cell(long bits, long invocations) {
        return String.format("%7.2f b %9d B", (double) bits / invocations, (bits + 7) / 8);
    }
}
