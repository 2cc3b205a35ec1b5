package dev.fieldprof.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Raw events coded in batches ({@link CallSitePathEncoder#codeRaw}) give the very reports the probe
 * methods give, wherever the batches end; version 4 names dropped segments and resumes exactly.
 */
class RawPathCodingTest {

    /** A run of a synthetic program as raw events, with each event's stack depth after it. */
    static final class RawRun implements SyntheticProgram.Probe {
        final CallSitePathEncoder lookup;
        final PathRecording recorded = new PathRecording();
        int[] raw = new int[1024];
        int n;
        int[] stack = new int[64];
        int depth;
        // Per event index i: the tracer-side stack after events [0, i) (kept for resync tests).
        final List<int[]> stacks = new ArrayList<>();

        RawRun(EdgeModel model) {
            lookup = new CallSitePathEncoder(model);
        }

        private void add(int e) {
            stacks.add(Arrays.copyOf(stack, depth));
            if (n == raw.length) {
                raw = Arrays.copyOf(raw, n * 2);
            }
            raw[n++] = e;
        }

        @Override
        public void enter(int methodId) {
            add(RawPathEvents.enter(methodId));
            recorded.enter(methodId);
            if (depth == stack.length) {
                stack = Arrays.copyOf(stack, depth * 2);
            }
            stack[depth++] = methodId;
        }

        @Override
        public void branch(int blockId, int edge) {
            int m = stack[depth - 1];
            add(RawPathEvents.branch(lookup.localEdge(m, blockId, edge)));
            recorded.branch(m, blockId, edge);
        }

        @Override
        public void exit(int methodId) {
            add(RawPathEvents.exit(methodId));
            recorded.exit(methodId, false);
            depth--;
        }

        @Override
        public void exitExceptionally(int methodId) {
            add(RawPathEvents.exitExceptionally(methodId));
            recorded.exit(methodId, true);
            depth--;
        }

        /** The recorded events [from, to) (event i of the recording is raw event i). */
        PathRecording slice(int from, int to) {
            PathRecording out = new PathRecording();
            for (int i = from; i < to; i++) {
                switch (recorded.kind(i)) {
                    case PathRecording.ENTER -> out.enter(recorded.methodId(i));
                    case PathRecording.BRANCH ->
                            out.branch(
                                    recorded.methodId(i),
                                    recorded.blockId(i),
                                    recorded.edgeIndex(i));
                    default ->
                            out.exit(recorded.methodId(i), recorded.kind(i) == PathRecording.THROW);
                }
            }
            return out;
        }
    }

    /** Codes every event through the probe methods, cutting where codeRaw would stop. */
    static List<byte[]> codeByProbes(RawRun run, EdgeModel model, int maxBytes, long maxEvents) {
        CallSitePathEncoder e = new CallSitePathEncoder(model);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < run.n; i++) {
            int ev = run.raw[i];
            int v = RawPathEvents.value(ev);
            switch (RawPathEvents.kind(ev)) {
                case RawPathEvents.ENTER -> e.enterMethod(v);
                case RawPathEvents.BRANCH -> e.branch(v, -1, -1);
                case RawPathEvents.EXIT -> e.exitMethod(v);
                default -> e.exitExceptionally(v);
            }
            if (e.codedBytesSoFar() >= maxBytes || e.eventsInReport() >= maxEvents) {
                out.add(e.finishReport());
            }
        }
        out.add(e.finishReport());
        return out;
    }

    /** Codes the events with codeRaw in random batches (segment buffers of random length). */
    static List<byte[]> codeInBatches(
            RawRun run, EdgeModel model, int maxBytes, long maxEvents, SplittableRandom rnd) {
        CallSitePathEncoder e = new CallSitePathEncoder(model);
        List<byte[]> out = new ArrayList<>();
        int i = 0;
        while (i < run.n) {
            int end = Math.min(run.n, i + 1 + rnd.nextInt(200));
            while (i < end) {
                i = e.codeRaw(run.raw, i, end, maxBytes, maxEvents);
                if (e.codedBytesSoFar() >= maxBytes || e.eventsInReport() >= maxEvents) {
                    out.add(e.finishReport());
                }
            }
        }
        out.add(e.finishReport());
        return out;
    }

    static PathRecording decodeAll(List<byte[]> reports, EdgeModel model) throws Exception {
        PathRecording all = new PathRecording();
        PathDecoder d = new PathDecoder(model);
        for (byte[] r : reports) {
            d.decode(r, all);
        }
        return all;
    }

    @Test
    void batchesCodeTheSameBytesAsProbeCallsWhereverTheyEndAndDecodeExactly() throws Exception {
        for (long seed = 1; seed <= 60; seed++) {
            SyntheticProgram program =
                    SyntheticProgram.generate(
                            seed, 1 + (int) (seed % 17), 1 + (int) (seed % 3), 100, 40);
            EdgeModel model = EdgeModel.uniform(program.table);
            RawRun run = new RawRun(model);
            program.run(new SplittableRandom(seed), run, 20, 5_000);
            int maxBytes = 16 + (int) (seed % 5) * 40;
            long maxEvents = 50 + seed * 7;
            List<byte[]> byProbes = codeByProbes(run, model, maxBytes, maxEvents);
            List<byte[]> inBatches =
                    codeInBatches(run, model, maxBytes, maxEvents, new SplittableRandom(-seed));
            assertEquals(byProbes.size(), inBatches.size(), "seed " + seed);
            for (int r = 0; r < byProbes.size(); r++) {
                assertArrayEquals(byProbes.get(r), inBatches.get(r), "seed " + seed + " " + r);
            }
            assertEquals(-1, decodeAll(inBatches, model).firstDifference(run.recorded));
        }
    }

    /**
     * Long reports with a learned model, where most events take codeRaw's fused path (a settled
     * position's most probable outcome), mixed with every event it hands to the probe methods: a
     * miss, a renormalization, a callee never entered before, a stack deeper than the encoder's
     * frames (recursion to depth 150), exceptions, an exit that skips frames above its method, and
     * events the encoder drops (unknown method, no such edge, exit of no open method). The same
     * bytes as the probe calls, cut at the same events; the clean run decodes exactly.
     */
    @Test
    void fusedCodingGivesTheProbeCallsBytesInLongReportsWithEveryKindOfRareEvent()
            throws Exception {
        for (long seed = 1; seed <= 12; seed++) {
            SyntheticProgram program = SyntheticProgram.generate(seed, 6 + (int) seed, 2, 60, 150);
            EdgeModel uniform = EdgeModel.uniform(program.table);
            RawRun field = new RawRun(uniform);
            program.run(new SplittableRandom(seed + 1000), field, 40, 60_000);
            EdgeCounter counts = new EdgeCounter(program.table);
            field.recorded.replay(counts);
            EdgeModel model =
                    new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL).next(uniform, counts);
            RawRun run = new RawRun(model);
            program.run(new SplittableRandom(seed), run, 40, 60_000);
            assertThat(run.n).as("seed " + seed).isGreaterThan(10_000);

            for (long maxEvents : new long[] {Long.MAX_VALUE, 7_777}) {
                for (int maxBytes : new int[] {Integer.MAX_VALUE, 300}) {
                    String where = "seed " + seed + " " + maxBytes + " B " + maxEvents + " events";
                    List<byte[]> byProbes = codeByProbes(run, model, maxBytes, maxEvents);
                    List<byte[]> inBatches =
                            codeInBatches(
                                    run, model, maxBytes, maxEvents, new SplittableRandom(seed));
                    assertEquals(byProbes.size(), inBatches.size(), where);
                    for (int r = 0; r < byProbes.size(); r++) {
                        assertArrayEquals(byProbes.get(r), inBatches.get(r), where + " " + r);
                    }
                    assertEquals(
                            -1, decodeAll(inBatches, model).firstDifference(run.recorded), where);
                }
            }

            // Rare events spliced in: codeRaw must still do exactly what the probe calls do.
            SplittableRandom rnd = new SplittableRandom(-seed);
            int methods = program.table.methodCount();
            int[] noisy = new int[run.n + run.n / 50 + 16];
            int k = 0;
            for (int i = 0; i < run.n; i++) {
                int e = run.raw[i];
                if (RawPathEvents.kind(e) == RawPathEvents.THROW && rnd.nextInt(3) == 0) {
                    continue; // a skipped exit probe: the next exit closes this frame too
                }
                noisy[k++] = e;
                if (rnd.nextInt(100) == 0) {
                    noisy[k++] =
                            switch (rnd.nextInt(4)) {
                                case 0 -> RawPathEvents.enter(methods + rnd.nextInt(3));
                                case 1 -> RawPathEvents.branch(-1);
                                case 2 -> RawPathEvents.branch(1 << 20);
                                default -> RawPathEvents.exit(methods + 1);
                            };
                }
            }
            RawRun spliced = new RawRun(model);
            spliced.raw = noisy;
            spliced.n = k;
            List<byte[]> byProbes = codeByProbes(spliced, model, 2_000, 50_000);
            List<byte[]> inBatches =
                    codeInBatches(spliced, model, 2_000, 50_000, new SplittableRandom(seed));
            assertEquals(byProbes.size(), inBatches.size(), "spliced, seed " + seed);
            for (int r = 0; r < byProbes.size(); r++) {
                assertArrayEquals(byProbes.get(r), inBatches.get(r), "spliced, seed " + seed);
            }
        }
    }

    @Test
    void versionFourNamesTheDroppedSegmentsAndResumesExactlyFromTheOpenMethods() throws Exception {
        for (long seed = 1; seed <= 40; seed++) {
            SyntheticProgram program = SyntheticProgram.generate(seed, 10, 2, 40, 30);
            EdgeModel model = EdgeModel.uniform(program.table);
            RawRun run = new RawRun(model);
            program.run(new SplittableRandom(seed), run, 20, 3_000);
            SplittableRandom rnd = new SplittableRandom(seed * 31);
            int a = rnd.nextInt(1, run.n / 2);
            int b = rnd.nextInt(a, run.n - 1);
            int segments = 1 + rnd.nextInt(3);
            CallSitePathEncoder e = new CallSitePathEncoder(model);
            e.writeFormat(4);
            assertEquals(a, e.codeRaw(run.raw, 0, a, Integer.MAX_VALUE, Long.MAX_VALUE));
            byte[] before = e.finishReport();
            int[] open = run.stacks.get(b);
            e.resync(open, open.length, segments);
            assertEquals(segments, e.droppedSegmentsPending());
            e.codeRaw(run.raw, b, run.n, Integer.MAX_VALUE, Long.MAX_VALUE);
            byte[] after = e.finishReport();
            assertEquals(0, e.droppedSegmentsPending());

            PathReportHeader h0 = PathDecoder.readHeader(before);
            PathReportHeader h1 = PathDecoder.readHeader(after);
            assertEquals(4, h0.formatVersion());
            assertEquals(0, h0.droppedSegments());
            assertEquals(segments, h1.droppedSegments());
            assertArrayEquals(open, h1.openMethods(), "seed " + seed);
            PathRecording first = new PathRecording();
            new PathDecoder(model).decode(before, first);
            assertEquals(-1, first.firstDifference(run.slice(0, a)), "seed " + seed);
            PathRecording second = new PathRecording();
            new PathDecoder(model).decode(after, second);
            assertEquals(-1, second.firstDifference(run.slice(b, run.n)), "seed " + seed);
            assertEquals(run.n - b, second.size());
        }
    }

    @Test
    void resyncIsRefusedInsideAReportAndOtherFormatsAreNotWritten() {
        ArrayBranchTable table = ArrayBranchTable.builder(2).branch(0, 1, 2).build();
        CallSitePathEncoder e = new CallSitePathEncoder(EdgeModel.uniform(table));
        e.enterMethod(0);
        assertThat(
                        assertThrows(
                                        IllegalStateException.class,
                                        () -> e.resync(new int[] {1}, 1, 1))
                                .getMessage())
                .isEqualTo("resync inside a report with 1 events");
        assertThat(
                        assertThrows(IllegalArgumentException.class, () -> e.writeFormat(5))
                                .getMessage())
                .isEqualTo("cannot write path format 5");
    }

    /**
     * Any single flipped bit of a version-4 report, its header included, is refused or decodes to
     * exactly the original events; every flip of the dropped-segment count is refused (the end
     * check covers it, so a corrupt count cannot pass for a gap).
     */
    @Test
    void aVersionFourReportWithAFlippedBitIsRefusedOrDecodesToTheSameEvents() throws Exception {
        SyntheticProgram program = SyntheticProgram.generate(7, 8, 2, 30, 20);
        EdgeModel model = EdgeModel.uniform(program.table);
        RawRun run = new RawRun(model);
        program.run(new SplittableRandom(7), run, 10, 2_000);
        CallSitePathEncoder e = new CallSitePathEncoder(model);
        e.writeFormat(4);
        e.codeRaw(run.raw, 0, 100, Integer.MAX_VALUE, Long.MAX_VALUE);
        e.finishReport();
        e.resync(run.stacks.get(300), run.stacks.get(300).length, 3);
        e.codeRaw(run.raw, 300, run.n, Integer.MAX_VALUE, Long.MAX_VALUE);
        byte[] report = e.finishReport();
        assertEquals(3, report[2]); // format, model version 0, then the dropped-segment count
        PathRecording original = new PathRecording();
        new PathDecoder(model).decode(report, original);
        List<String> harmless = new ArrayList<>();
        for (int bit = 0; bit < report.length * 8; bit++) {
            byte[] flipped = report.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            PathRecording decoded = new PathRecording();
            try {
                new PathDecoder(model).decode(flipped, decoded);
            } catch (InvalidPathReportException x) {
                continue;
            }
            assertEquals(original, decoded, "byte " + bit / 8 + " bit " + bit % 8);
            harmless.add((bit / 8 == report.length - 1 ? "last" : bit / 8) + ":" + bit % 8);
        }
        // Byte 6 bit 1: the outermost frame's count of returned calls, which version 3's decoding
        // does not use either; the last byte's low bits: the value stays in the final interval.
        assertThat(harmless)
                .containsExactly("6:1", "last:0", "last:1", "last:2", "last:3", "last:4", "last:5");
    }
}
