package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.tracing.PathTracer;
import dev.fieldprof.client.tracing.StagedPathTracer;
import dev.fieldprof.paths.CallSitePathEncoder;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.PathEventSink;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.paths.RawPathEvents;
import java.io.IOException;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One program's measured run (seed 0 of {@link PathBenchmarks}' workload, recorded as raw path
 * events) with the uniform model and the model M3 learned from seeds 1-3, replayed into the SDK's
 * {@link CallSitePathEncoder} or, through {@link PathProbes}, into a {@link PathTracer}: the
 * device's per-event cost without the traced library's own work around it. Also gives a digest of
 * the coded reports, so that two builds of the SDK can be checked to code byte-identical reports.
 */
final class EncoderFixture {
    final String name;
    final PathRecording run;
    final EdgeModel uniform;
    final EdgeModel m3;

    /**
     * The run as the staged tracer's raw events ({@link RawPathEvents}), branches by local edge.
     */
    final int[] raw;

    private final InstrumentedProgram program;
    private final ProbeReplay probes;

    private EncoderFixture(
            InstrumentedProgram program, PathRecording run, EdgeModel uniform, EdgeModel m3) {
        this.name = program.program().name();
        this.program = program;
        this.run = run;
        this.uniform = uniform;
        this.m3 = m3;
        this.probes = ProbeReplay.of(run, program.cfgs());
        this.raw = rawEvents(run, new CallSitePathEncoder(uniform));
    }

    private static int[] rawEvents(PathRecording run, CallSitePathEncoder edges) {
        int[][] raw = {new int[run.size()]};
        int[] n = {0};
        run.replay(
                new PathEventSink() {
                    @Override
                    public void enter(int methodId) {
                        add(methodId << 2 | RawPathEvents.ENTER);
                    }

                    @Override
                    public void branch(int methodId, int blockId, int edgeIndex) {
                        add(
                                edges.localEdge(methodId, blockId, edgeIndex) << 2
                                        | RawPathEvents.BRANCH);
                    }

                    @Override
                    public void exit(int methodId, boolean exceptional) {
                        add(
                                methodId << 2
                                        | (exceptional ? RawPathEvents.THROW : RawPathEvents.EXIT));
                    }

                    private void add(int e) {
                        if (n[0] == raw[0].length) {
                            raw[0] = Arrays.copyOf(raw[0], 2 * n[0] + 16);
                        }
                        raw[0][n[0]++] = e;
                    }
                });
        return Arrays.copyOf(raw[0], n[0]);
    }

    /**
     * Codes the raw run as the staged tracer's hand-overs do: format version 4, segments of {@link
     * StagedPathTracer#DEFAULT_SEGMENT_EVENTS}, cut at 16 KiB or {@link
     * StagedPathTracer#MAX_REPORT_EVENTS}.
     *
     * @param digest if not null, receives every report's bytes
     * @return the coded bytes
     */
    long codeStaged(EdgeModel model, MessageDigest digest) {
        CallSitePathEncoder e = new CallSitePathEncoder(model);
        e.writeFormat(4);
        int maxBytes = PathTracer.DEFAULT_MAX_REPORT_BYTES;
        long maxEvents = StagedPathTracer.MAX_REPORT_EVENTS;
        long total = 0;
        int segment = StagedPathTracer.DEFAULT_SEGMENT_EVENTS;
        for (int from = 0; from < raw.length; from += segment) {
            int to = Math.min(raw.length, from + segment);
            int i = from;
            while (i < to) {
                i = e.codeRaw(raw, i, to, maxBytes, maxEvents);
                if (e.codedBytesSoFar() >= maxBytes || e.eventsInReport() >= maxEvents) {
                    total += finish(e, digest);
                }
            }
        }
        if (e.eventsInReport() > 0) {
            total += finish(e, digest);
        }
        return total;
    }

    private static int finish(CallSitePathEncoder e, MessageDigest digest) {
        byte[] report = e.finishReport();
        if (digest != null) {
            digest.update(report);
        }
        return report.length;
    }

    /** Instruments the program's jar, records its runs and learns M1-M3 (takes seconds). */
    static EncoderFixture of(String program) throws Exception {
        LibraryProgram p = PathTimingChild.program(program, 1.0);
        InstrumentedProgram ip =
                InstrumentedProgram.of(p, Files.createTempDirectory("fieldprof-encoder-bench"));
        PathRecording[] runs = new PathRecording[4];
        for (int seed = 0; seed < 4; seed++) {
            runs[seed] = PathBenchmarks.record(ip.instrumentedJar(), p, seed);
        }
        EdgeModel[] models = PathBenchmarks.learnModels(ip.table(), runs[1], runs[2], runs[3]);
        return new EncoderFixture(ip, runs[0], models[0], models[3]);
    }

    /**
     * Codes the run with a fresh encoder, cut into reports as {@link PathTracer} cuts them.
     *
     * @param digest if not null, receives every report's bytes
     * @return the coded bytes
     */
    long encode(EdgeModel model, MessageDigest digest) {
        return PathBenchmarks.codedBytes(
                run,
                model,
                PathTracer.DEFAULT_MAX_REPORT_BYTES,
                digest == null ? report -> {} : digest::update);
    }

    /** The staged tracer as {@link PathBenchmarks} times it, coding on the traced thread. */
    StagedPathTracer newStagedTracer() throws IOException {
        return PathTimingChild.stagedTracer(
                program,
                PathBenchmarks.modelBytes(m3, PathTimingChild.appVersion(program.program())),
                StagedPathTracer.Coding.TRACED_THREAD);
    }

    /** A tracer as {@link PathBenchmarks} times it: reports dropped, coding with M3. */
    PathTracer newTracer() throws IOException {
        return PathTimingChild.timedTracer(
                program,
                PathBenchmarks.modelBytes(m3, PathTimingChild.appVersion(program.program())));
    }

    /** Plays the run into the installed {@link PathProbes} handler, as instrumented code would. */
    void probe() {
        probes.play();
    }

    /** Plays the run into a sink that does nothing: the replay's own cost. */
    int replayOnly() {
        int[] sum = {0};
        run.replay(
                new PathEventSink() {
                    @Override
                    public void enter(int methodId) {
                        sum[0] += methodId;
                    }

                    @Override
                    public void branch(int methodId, int blockId, int edgeIndex) {
                        sum[0] += edgeIndex;
                    }

                    @Override
                    public void exit(int methodId, boolean exceptional) {
                        sum[0] -= methodId;
                    }
                });
        return sum[0];
    }

    /** SHA-256 of the staged tracer's version-4 reports with M3 ({@link #codeStaged}). */
    String stagedDigest() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        codeStaged(m3, sha);
        return HexFormat.of().formatHex(sha.digest());
    }

    /** SHA-256 of the reports coded with the uniform model, then with M3. */
    String reportDigest() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        encode(uniform, sha);
        encode(m3, sha);
        return HexFormat.of().formatHex(sha.digest());
    }
}
