package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.analysis.instrument.PathProbeInstrumenter;
import dev.fieldprof.analysis.jar.JarContents;
import dev.fieldprof.analysis.model.AppPackages;
import dev.fieldprof.analysis.model.MethodInventory;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.paths.ArrayBranchTable;
import dev.fieldprof.client.paths.BranchTableText;
import dev.fieldprof.client.paths.CallSitePathEncoder;
import dev.fieldprof.client.paths.EdgeCounter;
import dev.fieldprof.client.paths.EdgeModel;
import dev.fieldprof.client.paths.ModelUpdater;
import dev.fieldprof.client.paths.PathEventSink;
import dev.fieldprof.client.paths.PathRecording;
import dev.fieldprof.client.tracing.EdgeModelStore;
import dev.fieldprof.client.tracing.PathTracer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;

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
    final ArrayBranchTable table;
    final EdgeModel uniform;
    final EdgeModel m3;
    private final ProbeReplay probes;

    private EncoderFixture(
            String name,
            PathRecording run,
            ArrayBranchTable table,
            EdgeModel uniform,
            EdgeModel m3) {
        this.name = name;
        this.run = run;
        this.table = table;
        this.uniform = uniform;
        this.m3 = m3;
        this.probes = ProbeReplay.of(run, table);
    }

    /** Instruments the program's jar, records its runs and learns M1-M3 (takes seconds). */
    static EncoderFixture of(String program) throws Exception {
        LibraryProgram p =
                LibraryProgram.all(1.0).stream()
                        .filter(q -> q.name().equals(program))
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("no program " + program));
        Path jar = p.jar();
        Map<String, Integer> ids =
                MethodInventory.of(JarContents.read(jar), AppPackages.parse(p.packages())).ids();
        PathProbeInstrumenter instrumenter = new PathProbeInstrumenter(ids);
        Path instrumented =
                Files.createTempDirectory("fieldprof-encoder-bench").resolve(p.name() + ".jar");
        PathProbeInstrumenter.Result result =
                instrumenter.instrumentJar(jar, instrumented, ids.size());
        ArrayBranchTable table = BranchTableText.parse(result.branches().toText());
        PathRecording run = PathBenchmarks.record(instrumented, p, 0);
        EdgeModel model = EdgeModel.uniform(table);
        ModelUpdater updater = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL);
        for (int seed = 1; seed <= 3; seed++) {
            EdgeCounter counts = new EdgeCounter(table);
            PathBenchmarks.record(instrumented, p, seed).replay(counts);
            model = updater.next(model, counts);
        }
        return new EncoderFixture(p.name(), run, table, EdgeModel.uniform(table), model);
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

    /**
     * A tracer as {@link PathBenchmarks} times it: reports dropped, coding with M3, adopted as a
     * device adopts the model the paths job publishes.
     */
    PathTracer newTracer() throws IOException {
        String app = "bench:" + name;
        EdgeModelStore store = new EdgeModelStore(app, table);
        byte[] record = PathBenchmarks.modelBytes(m3, app);
        if (!store.offer(dev.fieldprof.schemas.EdgeModel.fromByteBuffer(ByteBuffer.wrap(record)))) {
            throw new IllegalStateException(name + ": the tracer refused M3");
        }
        return new PathTracer(
                "bench", app, 0, store, report -> {}, PathTracer.DEFAULT_MAX_REPORT_BYTES, false);
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

    /** SHA-256 of the reports coded with the uniform model, then with M3. */
    String reportDigest() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        encode(uniform, sha);
        encode(m3, sha);
        return HexFormat.of().formatHex(sha.digest());
    }
}
