package dev.fieldprof.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Round trips of path format version 1; {@link CallSitePathRoundTripTest} runs them on version 3.
 */
class PathRoundTripTest {

    /** The encoder of the format under test. */
    PathReportEncoder newEncoder(EdgeModel model) {
        return new PathEncoder(model);
    }

    /** Bytes of {@link #roundTripsLongLoopsOfOneDecision}'s report. */
    long longLoopBytes() {
        return 82;
    }

    /** Bits of {@link #rejectsReportsItCannotDecode}'s coded stream. */
    int flippedBits() {
        return 176;
    }

    /** Flips of that stream's last bits that leave the value in the final interval. */
    int harmlessFlips() {
        return 0;
    }

    Harness harness(EdgeModel model, long cutSeed, int cutOneIn, List<EdgeModel> modelsToAdopt) {
        return new Harness(newEncoder(model), cutSeed, cutOneIn, modelsToAdopt);
    }

    /** Drives an encoder and records the expected events per report; may cut reports anywhere. */
    static final class Harness implements SyntheticProgram.Probe {
        final PathReportEncoder encoder;
        final List<byte[]> reports = new ArrayList<>();
        final List<PathRecording> expected = new ArrayList<>();
        private final SplittableRandom cuts;
        private final int cutOneIn;
        private final List<EdgeModel> modelsToAdopt;
        private final Map<Integer, Integer> stack = new HashMap<>();
        private int[] frames = new int[1 << 16];
        private int depth;

        Harness(
                PathReportEncoder encoder,
                long cutSeed,
                int cutOneIn,
                List<EdgeModel> modelsToAdopt) {
            this.encoder = encoder;
            this.cuts = new SplittableRandom(cutSeed);
            this.cutOneIn = cutOneIn;
            this.modelsToAdopt = new ArrayList<>(modelsToAdopt);
            expected.add(new PathRecording());
        }

        private PathRecording current() {
            return expected.get(expected.size() - 1);
        }

        private void maybeCut() {
            if (cutOneIn > 0 && cuts.nextInt(cutOneIn) == 0) {
                cut();
            }
        }

        void cut() {
            if (!modelsToAdopt.isEmpty() && cuts.nextBoolean()) {
                encoder.useModel(modelsToAdopt.remove(0));
            }
            reports.add(encoder.finishReport());
            expected.add(new PathRecording());
        }

        @Override
        public void enter(int methodId) {
            encoder.enterMethod(methodId);
            current().enter(methodId);
            if (depth == frames.length) {
                frames = java.util.Arrays.copyOf(frames, depth * 2);
            }
            frames[depth++] = methodId;
            maybeCut();
        }

        @Override
        public void branch(int blockId, int edge) {
            encoder.branch(blockId, edge);
            current().branch(frames[depth - 1], blockId, edge);
            maybeCut();
        }

        @Override
        public void exit(int methodId) {
            encoder.exitMethod(methodId);
            current().exit(methodId, false);
            depth--;
            maybeCut();
        }

        @Override
        public void exitExceptionally(int methodId) {
            encoder.exitExceptionally(methodId);
            current().exit(methodId, true);
            depth--;
            maybeCut();
        }

        /** Finishes the last report and checks every report decodes to what was recorded. */
        long verify(Map<Long, EdgeModel> models, String what) {
            reports.add(encoder.finishReport());
            assertEquals(0, encoder.droppedEvents(), what + ": dropped events");
            long bytes = 0;
            for (int i = 0; i < reports.size(); i++) {
                byte[] report = reports.get(i);
                bytes += report.length;
                PathRecording decoded = new PathRecording();
                try {
                    long version = PathDecoder.readHeader(report).modelVersion();
                    new PathDecoder(models.get(version)).decode(report, decoded);
                } catch (InvalidPathReportException e) {
                    fail(what + ": report " + i + " rejected: " + e.getMessage(), e);
                }
                PathRecording want = expected.get(i);
                int diff = want.firstDifference(decoded);
                if (diff >= 0) {
                    fail(
                            what
                                    + ": report "
                                    + i
                                    + " differs at event "
                                    + diff
                                    + " of "
                                    + want.size()
                                    + ": expected "
                                    + want.describe(diff)
                                    + ", decoded "
                                    + decoded.describe(diff));
                }
            }
            return bytes;
        }
    }

    @Test
    void roundTripsRandomProgramsWithLoopsCallsRecursionAndThrows() {
        for (long seed = 1; seed <= 120; seed++) {
            SyntheticProgram program =
                    SyntheticProgram.generate(
                            seed, 1 + (int) (seed % 17), 1 + (int) (seed % 3), 300, 40);
            EdgeModel uniform = EdgeModel.uniform(program.table);
            Harness h = harness(uniform, seed, 0, List.of());
            program.run(new SplittableRandom(seed), h, 30, 20_000);
            h.verify(Map.of(0L, uniform), "seed " + seed);
        }
    }

    @Test
    void roundTripsReportsCutAnywhereWithFramesOpenAndModelSwitches() {
        for (long seed = 1; seed <= 60; seed++) {
            SyntheticProgram program = SyntheticProgram.generate(seed, 12, 2, 50, 30);
            EdgeModel m0 = EdgeModel.uniform(program.table);
            // A trained model to switch to between reports.
            Harness training = harness(m0, seed, 0, List.of());
            program.run(new SplittableRandom(seed + 1000), training, 20, 5_000);
            training.reports.add(training.encoder.finishReport());
            EdgeCounter counts = new EdgeCounter(program.table);
            for (byte[] r : training.reports) {
                try {
                    new PathDecoder(m0).decode(r, counts);
                } catch (InvalidPathReportException e) {
                    fail("seed " + seed, e);
                }
            }
            EdgeModel m1 = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL).next(m0, counts);
            Harness h = harness(m0, seed, 1 + (int) (seed % 200), List.of(m1));
            program.run(new SplittableRandom(seed), h, 25, 10_000);
            h.verify(Map.of(0L, m0, 1L, m1), "seed " + seed);
            assertTrue(h.reports.size() > 1 || seed % 200 > 100, "seed " + seed + ": no cut");
        }
    }

    @Test
    void roundTripsWithWrongAndRandomSuccessorHints() {
        for (long seed = 1; seed <= 40; seed++) {
            SyntheticProgram program = SyntheticProgram.generate(seed, 8, 2, 30, 20);
            EdgeModel m0 = EdgeModel.uniform(program.table);
            SplittableRandom rnd = new SplittableRandom(seed * 31);
            EdgeModel.Builder b = EdgeModel.builder(m0).version(9);
            BranchLayout layout = m0.layout;
            for (int m = 0; m <= program.methodCount; m++) {
                int contexts = (layout.edgeCount(m) + 1) * SuccessorModel.CALL_LEVELS;
                int symbols = 2 + layout.branchCount(m) + program.methodCount;
                for (int c = 0; c < contexts; c++) {
                    if (rnd.nextInt(3) == 0) {
                        continue;
                    }
                    int k = Math.min(symbols, rnd.nextInt(1, 5));
                    int[] sym = rnd.ints(0, symbols).distinct().limit(k).toArray();
                    int[] f = rnd.ints(sym.length, 1, 2000).toArray();
                    b.successors(m, c, sym, f);
                }
            }
            EdgeModel hinted = b.build();
            Harness h = harness(hinted, seed, 1 + (int) (seed % 50), List.of());
            program.run(new SplittableRandom(seed), h, 20, 5_000);
            h.verify(Map.of(9L, hinted), "seed " + seed);
        }
    }

    @Test
    void roundTripsDeepRecursionAcrossReportCuts() {
        ArrayBranchTable table =
                ArrayBranchTable.builder(3).branch(0, 4, 2).branch(1, 0, 3).branch(2, 9, 2).build();
        EdgeModel model = EdgeModel.uniform(table);
        Harness h = harness(model, 5, 0, List.of());
        int depth = 60_000;
        for (int i = 0; i < depth; i++) {
            h.enter(i % 2);
            h.branch(i % 2 == 0 ? 4 : 0, i % 2 == 0 ? 0 : (i / 2) % 3);
            if (i == depth / 2) {
                h.cut(); // a report whose header carries 30,001 open frames
            }
        }
        h.enter(2);
        h.branch(9, 1);
        h.exitExceptionally(2);
        for (int i = depth - 1; i >= 0; i--) {
            if (i >= depth - 100) {
                h.exitExceptionally(i % 2);
            } else {
                h.branch(i % 2 == 0 ? 4 : 0, 1);
                h.exit(i % 2);
            }
        }
        h.verify(Map.of(0L, model), "deep recursion");
        assertEquals(0, h.encoder.depth());
    }

    @Test
    void roundTripsLongLoopsOfOneDecision() {
        ArrayBranchTable table = ArrayBranchTable.builder(1).branch(0, 1, 2).build();
        EdgeModel model = EdgeModel.uniform(table);
        Harness h = harness(model, 1, 0, List.of());
        h.enter(0);
        for (int i = 0; i < 1_000_000; i++) {
            h.branch(1, 0);
        }
        h.branch(1, 1);
        h.exit(0);
        long bytes = h.verify(Map.of(0L, model), "long loop");
        // A million identical decisions: the adaptive counts make them almost free. The bound
        // (8192) caps a count's probability near 8191/8192, so each decision still costs about
        // 2 x 0.0003 bits (branch-node symbol and edge): 82 bytes with the header.
        assertEquals(longLoopBytes(), bytes);
    }

    @Test
    void exitBelowTheTopClosesSkippedFramesAsExceptional() {
        ArrayBranchTable table = ArrayBranchTable.builder(3).branch(1, 2, 2).build();
        EdgeModel model = EdgeModel.uniform(table);
        PathReportEncoder enc = newEncoder(model);
        enc.enterMethod(0);
        enc.enterMethod(1);
        enc.enterMethod(2);
        enc.exitMethod(0); // frames 2 and 1 never ran their exit probes
        enc.exitMethod(1); // not open: dropped
        enc.enterMethod(7); // no such method: dropped
        enc.branch(2, 0); // no open frame: dropped
        PathRecording decoded = new PathRecording();
        try {
            new PathDecoder(model).decode(enc.finishReport(), decoded);
        } catch (InvalidPathReportException e) {
            fail(e);
        }
        PathRecording want = new PathRecording();
        want.enter(0);
        want.enter(1);
        want.enter(2);
        want.exit(2, true);
        want.exit(1, true);
        want.exit(0, false);
        assertEquals(want, decoded);
        assertEquals(3, enc.droppedEvents());
    }

    @Test
    void arbitraryProbeMisuseNeverThrowsAndStillDecodesToWhatWasAccepted() {
        ArrayBranchTable table =
                ArrayBranchTable.builder(5)
                        .branch(0, 1, 2)
                        .branch(0, 3, 7)
                        .branch(2, 0, 2)
                        .branch(4, 8, 3)
                        .build();
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            EdgeModel model = EdgeModel.uniform(table);
            PathReportEncoder enc = newEncoder(model);
            PathRecording accepted = new PathRecording();
            enc.record(accepted);
            List<byte[]> reports = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                // Ids slightly out of range on purpose: -1, 5, unknown blocks, bad edges.
                int m = rnd.nextInt(-1, 6);
                switch (rnd.nextInt(5)) {
                    case 0 -> enc.enterMethod(m);
                    case 1 -> enc.branch(rnd.nextInt(-1, 10), rnd.nextInt(-1, 8));
                    case 2 -> enc.exitMethod(m);
                    case 3 -> enc.exitExceptionally(m);
                    default -> {
                        if (rnd.nextInt(50) == 0) {
                            reports.add(enc.finishReport());
                        }
                    }
                }
            }
            reports.add(enc.finishReport());
            PathRecording decoded = new PathRecording();
            PathDecoder decoder = new PathDecoder(model);
            for (byte[] r : reports) {
                try {
                    decoder.decode(r, decoded);
                } catch (InvalidPathReportException e) {
                    fail("seed " + seed + ": " + e.getMessage(), e);
                }
            }
            int diff = accepted.firstDifference(decoded);
            assertEquals(-1, diff, "seed " + seed + ": first difference at " + diff);
            assertTrue(enc.droppedEvents() > 0, "seed " + seed);
        }
    }

    @Test
    void debugRecordingMatchesTheDecodedReport() {
        SyntheticProgram program = SyntheticProgram.generate(42, 9, 2, 20, 20);
        EdgeModel model = EdgeModel.uniform(program.table);
        Harness h = harness(model, 42, 0, List.of());
        PathRecording raw = new PathRecording();
        h.encoder.record(raw);
        program.run(new SplittableRandom(42), h, 20, 5_000);
        h.verify(Map.of(0L, model), "debug recording");
        assertEquals(h.expected.get(0), raw);
        // The raw form a debug-mode report carries reads back to the same events.
        assertEquals(raw, PathRecording.fromBytes(raw.toBytes()));
        PathRecording small = new PathRecording();
        small.enter(300);
        small.branch(300, 7, 1);
        small.exit(300, true);
        assertEquals(
                "[1, 0, -84, 2, 1, -84, 2, 7, 1, 3, -84, 2]",
                java.util.Arrays.toString(small.toBytes()));
    }

    @Test
    void rejectsReportsItCannotDecode() throws Exception {
        ArrayBranchTable table = ArrayBranchTable.builder(2).branch(0, 1, 2).build();
        EdgeModel m0 = EdgeModel.uniform(table);
        EdgeModel m1 = EdgeModel.builder(m0).version(1).build();
        PathReportEncoder enc = newEncoder(m0);
        for (int i = 0; i < 200; i++) {
            enc.enterMethod(0);
            enc.branch(1, i % 7 == 0 ? 1 : 0);
            enc.enterMethod(1);
            enc.exitMethod(1);
            enc.exitMethod(0);
        }
        byte[] report = enc.finishReport();
        PathDecoder d1 = new PathDecoder(m1);
        InvalidPathReportException wrongModel =
                assertThrows(
                        InvalidPathReportException.class,
                        () -> d1.decode(report, new PathRecording()));
        assertEquals(
                "report coded with edge model version 0, decoder holds version 1",
                wrongModel.getMessage());

        byte[] future = report.clone();
        future[0] = 9;
        assertEquals(
                "unsupported path format version 9; this decoder reads versions 1, 3 and 4",
                assertThrows(InvalidPathReportException.class, () -> PathDecoder.readHeader(future))
                        .getMessage());
        // Version 2 never shipped: its coding was replaced by version 3's, so it is refused.
        byte[] retired = report.clone();
        retired[0] = 2;
        assertEquals(
                "unsupported path format version 2; this decoder reads versions 1, 3 and 4",
                assertThrows(
                                InvalidPathReportException.class,
                                () -> PathDecoder.readHeader(retired))
                        .getMessage());
        assertEquals(
                "empty path report",
                assertThrows(
                                InvalidPathReportException.class,
                                () -> PathDecoder.readHeader(new byte[0]))
                        .getMessage());
        assertEquals(
                "truncated header: no event count",
                assertThrows(
                                InvalidPathReportException.class,
                                () -> PathDecoder.readHeader(new byte[] {1, 0}))
                        .getMessage());

        // Flipping any single bit of the coded stream is either detected (by the end check or a
        // structural error) or, in the last bytes, leaves the value inside the final interval so
        // that exactly the original events decode.
        PathDecoder d0 = new PathDecoder(m0);
        PathRecording original = new PathRecording();
        d0.decode(report, original);
        int harmless = 0;
        int offset = PathDecoder.readHeader(report).codedOffset();
        int detected = 0;
        int flips = 0;
        for (int i = offset; i < report.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] bad = report.clone();
                bad[i] ^= (byte) (1 << bit);
                flips++;
                PathRecording decoded = new PathRecording();
                try {
                    d0.decode(bad, decoded);
                    assertEquals(original, decoded, "undetected flip of byte " + i + " bit " + bit);
                    harmless++;
                } catch (InvalidPathReportException e) {
                    detected++;
                }
            }
        }
        assertEquals(flippedBits(), flips);
        assertEquals(flippedBits() - harmlessFlips(), detected);
        assertEquals(harmlessFlips(), harmless);
        d0.decode(report, new PathRecording()); // the decoder is still usable
    }
}
