package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.probe.PathProbeHandler;
import dev.fieldprof.client.tracing.EdgeModelStore;
import dev.fieldprof.client.tracing.PathTracer;
import dev.fieldprof.client.tracing.StagedPathTracer;
import dev.fieldprof.paths.PathEventSink;
import dev.fieldprof.paths.PathRecording;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One child JVM of the path timings ({@link AlternatingJvms}): instruments the program's jar as
 * every child does (so all children start from the same state), measures one {@link
 * TimedConfiguration} and prints its {@link ChildTiming} line(s) on stdout. A workload
 * configuration times the seeded workload (thread CPU time per run); an events configuration
 * replays the workload's recorded path events through {@link PathProbes} twice per run, all of them
 * and only their enters and exits, alternating which goes first. An events configuration is given
 * the recorded events ({@code --events}, PathRecording bytes), a configuration whose tracer codes
 * with the learned model the model ({@code --model}, an Avro EdgeModel record). On any failure it
 * prints one line on stderr and exits with status 1.
 *
 * <pre>
 * PathTimingChild program scale configuration warm-up measured round [--events FILE] [--model FILE]
 * </pre>
 */
public final class PathTimingChild {
    private PathTimingChild() {}

    public static void main(String[] args) {
        try {
            if (args.length < 6 || args.length % 2 != 0) {
                throw new IllegalArgumentException(
                        "usage: PathTimingChild program scale configuration warm-up measured round"
                                + " [--events FILE] [--model FILE]");
            }
            Path eventsFile = null;
            Path modelFile = null;
            for (int i = 6; i < args.length; i += 2) {
                switch (args[i]) {
                    case "--events" -> eventsFile = Path.of(args[i + 1]);
                    case "--model" -> modelFile = Path.of(args[i + 1]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            double scale = Double.parseDouble(args[1]);
            LibraryProgram p = program(args[0], scale);
            TimedConfiguration c = TimedConfiguration.of(args[2]);
            int warmup = Integer.parseInt(args[3]);
            int measured = Integer.parseInt(args[4]);
            int round = Integer.parseInt(args[5]);
            if (warmup < 0 || measured < 1) {
                throw new IllegalArgumentException(
                        "warm-up runs must be >= 0 and measured runs >= 1, got "
                                + warmup
                                + " and "
                                + measured);
            }
            if (c.workload == (eventsFile != null)) {
                throw new IllegalArgumentException(
                        c.id
                                + (c.workload
                                        ? " times the workload and takes no events file"
                                        : " needs the recorded events file"));
            }
            if (c.learnedModel != (modelFile != null)) {
                throw new IllegalArgumentException(
                        c.id
                                + (c.learnedModel
                                        ? " needs the learned model file"
                                        : " takes no model file"));
            }
            Path work = Files.createTempDirectory("fieldprof-path-timing");
            try {
                InstrumentedProgram ip = InstrumentedProgram.of(p, work);
                PathProbeHandler handler = handler(ip, c, modelFile);
                if (c.workload) {
                    double[] process = new double[measured];
                    long[] segments = new long[2];
                    double[] ms =
                            workloadMillis(ip, c, handler, warmup, measured, process, segments);
                    System.out.println(
                            new ChildTiming(
                                            round,
                                            p.name(),
                                            c,
                                            ChildTiming.Stream.WORKLOAD,
                                            0,
                                            0,
                                            ms)
                                    .toLine());
                    if (handler instanceof StagedPathTracer) {
                        System.out.println(
                                new ChildTiming(
                                                round,
                                                p.name(),
                                                c,
                                                ChildTiming.Stream.PROCESS,
                                                segments[0],
                                                segments[1],
                                                process)
                                        .toLine());
                    }
                } else {
                    PathRecording all = PathRecording.fromBytes(Files.readAllBytes(eventsFile));
                    for (ChildTiming t :
                            replayMillis(ip, c, handler, all, warmup, measured, round)) {
                        System.out.println(t.toLine());
                    }
                }
            } finally {
                delete(work);
            }
        } catch (Throwable e) {
            System.err.println(
                    "path timing child "
                            + String.join(" ", args)
                            + ": "
                            + (e.getMessage() == null ? e.toString() : e.getMessage()));
            System.exit(1);
        }
    }

    static LibraryProgram program(String name, double scale) {
        return LibraryProgram.all(scale).stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no program '" + name + "'"));
    }

    /**
     * The handler a configuration installs (null: none, tracing off); {@code model} is the learned
     * model's file for the configurations that code with it.
     */
    static PathProbeHandler handler(InstrumentedProgram ip, TimedConfiguration c, Path model)
            throws IOException {
        return switch (c) {
            case ORIGINAL, PROBES_OFF -> null;
            case TRACER, EVENTS_TRACER, TRACER_UNIFORM ->
                    timedTracer(ip, model == null ? null : Files.readAllBytes(model));
            case BLPP -> new BaselineRuntime(BaselineRuntime.Kind.BLPP, ip.methods(), ip.cfgs());
            case PAP, EVENTS_PAP ->
                    new BaselineRuntime(BaselineRuntime.Kind.PAP, ip.methods(), ip.cfgs());
            case EVENTS_DISPATCH -> new NoOpProbeHandler();
            case RAW_CAPTURE -> new RawCaptureHandler();
            case STAGED, EVENTS_STAGED ->
                    stagedTracer(
                            ip, Files.readAllBytes(model), StagedPathTracer.Coding.CODER_THREAD);
            case STAGED_INLINE ->
                    stagedTracer(
                            ip, Files.readAllBytes(model), StagedPathTracer.Coding.TRACED_THREAD);
        };
    }

    /** The staged tracer coding with the model of {@code modelRecord}, reports dropped. */
    static StagedPathTracer stagedTracer(
            InstrumentedProgram ip, byte[] modelRecord, StagedPathTracer.Coding coding)
            throws IOException {
        PathTracer t = timedTracer(ip, modelRecord); // its store holds the adopted model
        return new StagedPathTracer(
                "bench",
                appVersion(ip.program()),
                0,
                t.models(),
                report -> {},
                PathTracer.DEFAULT_MAX_REPORT_BYTES,
                StagedPathTracer.DEFAULT_SEGMENT_EVENTS,
                coding,
                false);
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU ns the staged tracer's coder thread has used so far (0 before it started). */
    private static long coderNanos(StagedPathTracer t) {
        Thread c = t.coderThread();
        return c == null ? 0 : Math.max(0, THREADS.getThreadCpuTime(c.getId()));
    }

    /** The app version the timed tracer and its learned model name. */
    static String appVersion(LibraryProgram p) {
        return "bench:" + p.name();
    }

    /**
     * The tracer as the timings run it, coding with the model of {@code modelRecord} (an Avro
     * EdgeModel record of {@link #appVersion}, adopted as a device adopts a published one), or
     * uniform if null.
     */
    static PathTracer timedTracer(InstrumentedProgram ip, byte[] modelRecord) throws IOException {
        String app = appVersion(ip.program());
        EdgeModelStore store = new EdgeModelStore(app, ip.table());
        if (modelRecord != null
                && !store.offer(
                        dev.fieldprof.schemas.EdgeModel.fromByteBuffer(
                                ByteBuffer.wrap(modelRecord)))) {
            throw new IllegalArgumentException(
                    "the tracer refused the model: "
                            + (store.lastRefusal() == null
                                    ? "another app version or not newer than its own"
                                    : store.lastRefusal()));
        }
        return new PathTracer(
                "bench", app, 0, store, report -> {}, PathTracer.DEFAULT_MAX_REPORT_BYTES, false);
    }

    /**
     * CPU ms of each measured workload run, after {@code warmup} runs. For a staged tracer also
     * each run's CPU on its thread and the coder thread together ({@code process}, the run's coding
     * waited for after it) and the segments coded and dropped in the measured runs ({@code
     * segments}).
     */
    static double[] workloadMillis(
            InstrumentedProgram ip,
            TimedConfiguration c,
            PathProbeHandler handler,
            int warmup,
            int measured,
            double[] process,
            long[] segments)
            throws Exception {
        LibraryProgram p = ip.program();
        Path jar = c == TimedConfiguration.ORIGINAL ? ip.originalJar() : ip.instrumentedJar();
        try (WorkloadLoader loader = new WorkloadLoader(jar)) {
            Method run = p.runMethod(loader);
            PathProbes.install(handler);
            try {
                double[] ms = new double[measured];
                StagedPathTracer staged = handler instanceof StagedPathTracer st ? st : null;
                for (int i = 0; i < warmup + measured; i++) {
                    if (i == warmup && staged != null) {
                        segments[0] = -staged.segmentsCoded();
                        segments[1] = -staged.droppedSegments();
                    }
                    long coder0 = staged == null ? 0 : coderNanos(staged);
                    double t = WorkloadCpuTime.millis(run, 0L, p.rounds());
                    if (staged != null && !staged.awaitCoded(10_000_000_000L)) {
                        throw new IllegalStateException("the coder did not finish in 10 s");
                    }
                    if (i >= warmup) {
                        ms[i - warmup] = t;
                        if (staged != null) {
                            process[i - warmup] = t + (coderNanos(staged) - coder0) / 1e6;
                        }
                    }
                }
                if (staged != null) {
                    segments[0] += staged.segmentsCoded();
                    segments[1] += staged.droppedSegments();
                    staged.close();
                }
                checkClean(p, handler);
                return ms;
            } finally {
                PathProbes.uninstall();
            }
        }
    }

    /**
     * CPU ms of each measured replay of all recorded events and of their enters and exits alone,
     * through {@link PathProbes} into the configuration's handler.
     */
    static ChildTiming[] replayMillis(
            InstrumentedProgram ip,
            TimedConfiguration c,
            PathProbeHandler handler,
            PathRecording all,
            int warmup,
            int measured,
            int round) {
        EventCounts counts = EventCounts.of(all);
        PathRecording calls = withoutBranches(all);
        ProbeReplay allProbes = ProbeReplay.of(all, ip.cfgs());
        ProbeReplay callProbes = ProbeReplay.of(calls, ip.cfgs());
        double[] allMs = new double[measured];
        double[] callsMs = new double[measured];
        PathProbes.install(handler);
        try {
            for (int i = 0; i < warmup + measured; i++) {
                // Which stream goes first alternates, so neither always finds the other's caches.
                double a;
                double b;
                if (i % 2 == 0) {
                    a = WorkloadCpuTime.millis(() -> allProbes.play());
                    awaitCoded(handler);
                    b = WorkloadCpuTime.millis(() -> callProbes.play());
                } else {
                    b = WorkloadCpuTime.millis(() -> callProbes.play());
                    awaitCoded(handler);
                    a = WorkloadCpuTime.millis(() -> allProbes.play());
                }
                awaitCoded(handler);
                if (i >= warmup) {
                    allMs[i - warmup] = a;
                    callsMs[i - warmup] = b;
                }
            }
            checkClean(ip.program(), handler);
        } finally {
            PathProbes.uninstall();
        }
        String name = ip.program().name();
        return new ChildTiming[] {
            new ChildTiming(
                    round,
                    name,
                    c,
                    ChildTiming.Stream.ALL_EVENTS,
                    counts.branches(),
                    counts.calls(),
                    allMs),
            new ChildTiming(
                    round, name, c, ChildTiming.Stream.CALLS_ONLY, 0, counts.calls(), callsMs)
        };
    }

    /** Lets a staged tracer's coder catch up between timed replays (untimed). */
    private static void awaitCoded(PathProbeHandler handler) {
        if (handler instanceof StagedPathTracer t && !t.awaitCoded(10_000_000_000L)) {
            throw new IllegalStateException("the coder did not finish in 10 s");
        }
    }

    /** Branch decisions and enter/exit pairs of a recorded run whose every enter has its exit. */
    record EventCounts(long branches, long calls) {
        static EventCounts of(PathRecording run) {
            long branches = 0;
            long enters = 0;
            long exits = 0;
            for (int i = 0; i < run.size(); i++) {
                switch (run.kind(i)) {
                    case PathRecording.BRANCH -> branches++;
                    case PathRecording.ENTER -> enters++;
                    default -> exits++;
                }
            }
            if (enters != exits) {
                throw new IllegalArgumentException(
                        "recorded run has "
                                + enters
                                + " enters but "
                                + exits
                                + " exits; the replay needs every frame closed");
            }
            return new EventCounts(branches, enters);
        }
    }

    /** The run's enters and exits in order, its branch decisions left out. */
    static PathRecording withoutBranches(PathRecording run) {
        PathRecording calls = new PathRecording();
        run.replay(
                new PathEventSink() {
                    @Override
                    public void enter(int methodId) {
                        calls.enter(methodId);
                    }

                    @Override
                    public void branch(int methodId, int blockId, int edgeIndex) {}

                    @Override
                    public void exit(int methodId, boolean exceptional) {
                        calls.exit(methodId, exceptional);
                    }
                });
        return calls;
    }

    private static void checkClean(LibraryProgram p, PathProbeHandler handler) {
        if (PathProbes.failures() != 0
                || (handler instanceof PathTracer t && t.droppedEvents() != 0)
                || (handler instanceof StagedPathTracer s && s.droppedEvents() != 0)) {
            throw new IllegalStateException(p.name() + ": probe events dropped or failed");
        }
    }

    static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
