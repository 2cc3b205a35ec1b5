package dev.fieldprof.jobs.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.CallSitePathEncoder;
import dev.fieldprof.paths.EdgeCounter;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.ModelUpdater;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathEncoder;
import dev.fieldprof.paths.PathReportEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PathModelAggregatorTest {
    // Method 0: a loop test at block 1 and a 3-way switch at block 4; method 1: a null check at
    // block 0; method 2: no branches.
    static final ArrayBranchTable TABLE =
            ArrayBranchTable.builder(3).branch(0, 1, 2).branch(0, 4, 3).branch(1, 0, 2).build();

    /** One device's run: {@code invocations} calls of method 0, one report per invocation. */
    static List<byte[]> deviceReports(PathReportEncoder device, long seed, int invocations) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<byte[]> reports = new ArrayList<>();
        for (int i = 0; i < invocations; i++) {
            device.enterMethod(0);
            int iterations = rnd.nextInt(5, 30);
            for (int it = 0; it < iterations; it++) {
                device.branch(1, 0);
                device.branch(4, rnd.nextInt(16) == 0 ? rnd.nextInt(2) : 2);
                device.enterMethod(1);
                device.branch(0, rnd.nextInt(32) == 0 ? 1 : 0);
                device.exitMethod(1);
                device.enterMethod(2);
                device.exitMethod(2);
            }
            device.branch(1, 1);
            device.exitMethod(0);
            reports.add(device.finishReport());
        }
        return reports;
    }

    static int bytes(List<byte[]> reports) {
        return reports.stream().mapToInt(r -> r.length).sum();
    }

    @Test
    void publishedModelsShrinkTheDevicesNextReports() {
        EdgeModel m0 = EdgeModel.uniform(TABLE);
        PathModelAggregator agg =
                new PathModelAggregator(m0, 3, new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
        PathEncoder device = new PathEncoder(m0);
        int[] sizes = new int[4];
        for (int round = 0; round < 4; round++) {
            List<byte[]> reports = deviceReports(device, 100 + round, 50);
            sizes[round] = bytes(reports);
            for (byte[] r : reports) {
                assertTrue(agg.add(r).accepted(), "round " + round);
            }
            EdgeModel next = agg.closeWindow().orElseThrow();
            assertEquals(round + 1, next.version());
            device.useModel(next); // devices switch between reports
        }
        System.out.printf(
                "50 reports per round, bytes with models 0..3: %s%n",
                java.util.Arrays.toString(sizes));
        assertEquals(List.of(0L, 2L, 3L, 4L), agg.keptVersions());
        // Each round is a new run (seed 100 + round): version 1 already cuts 42%; later versions
        // change little because the workload does not drift.
        assertEquals(765, sizes[0]);
        assertEquals(444, sizes[1]);
        assertEquals(439, sizes[2]);
        assertEquals(452, sizes[3]);
    }

    @Test
    void decodesEachReportWithTheVersionItNamesAndRejectsEvictedOnes() {
        EdgeModel m0 = EdgeModel.uniform(TABLE);
        PathModelAggregator agg =
                new PathModelAggregator(m0, 2, new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
        PathEncoder old = new PathEncoder(m0);
        List<byte[]> fromV0 = deviceReports(old, 1, 3);
        agg.add(fromV0.get(0));
        EdgeModel m1 = agg.closeWindow().orElseThrow();
        // A device still on version 0 is decoded with version 0, beside version 1 reports.
        PathEncoder fresh = new PathEncoder(m1);
        PathModelAggregator.Outcome o0 = agg.add(fromV0.get(1));
        PathModelAggregator.Outcome o1 = agg.add(deviceReports(fresh, 2, 1).get(0));
        assertEquals(0, o0.modelVersion());
        assertTrue(o0.accepted());
        assertEquals(1, o1.modelVersion());
        assertTrue(o1.accepted());
        byte[] fromV1 = deviceReports(fresh, 4, 1).get(0);
        EdgeModel m2 = agg.closeWindow().orElseThrow();
        assertEquals(2, m2.version());
        agg.add(deviceReports(new PathEncoder(m2), 5, 1).get(0));
        assertEquals(3, agg.closeWindow().orElseThrow().version());
        // Version 1 is evicted; the uniform version 0 never is: a device that
        // has not fetched any model yet is still decoded.
        assertEquals(List.of(0L, 2L, 3L), agg.keptVersions());
        assertTrue(agg.add(fromV0.get(2)).accepted());
        PathModelAggregator.Outcome evicted = agg.add(fromV1);
        assertFalse(evicted.accepted());
        assertEquals("edge model version 1 is not kept (kept: [0, 2, 3])", evicted.reason());
        assertEquals(1, agg.rejectedInWindow());
        assertEquals(4, agg.closeWindow().orElseThrow().version());
        // Nothing accepted in this window: no new version.
        assertEquals(Optional.empty(), agg.closeWindow());
        assertEquals(4, agg.current().version());
    }

    @Test
    void learnsTheSameModelFromVersionOneAndVersionThreeReportsOfTheSameRuns() {
        EdgeModel m0 = EdgeModel.uniform(TABLE);
        ModelUpdater updater = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL);
        PathModelAggregator fromV1 = new PathModelAggregator(m0, 2, updater);
        PathModelAggregator fromV3 = new PathModelAggregator(m0, 2, updater);
        List<byte[]> v1 = deviceReports(new PathEncoder(m0), 7, 20);
        List<byte[]> v3 = deviceReports(new CallSitePathEncoder(m0), 7, 20);
        for (int i = 0; i < v1.size(); i++) {
            assertTrue(fromV1.add(v1.get(i)).accepted());
            assertTrue(fromV3.add(v3.get(i)).accepted());
        }
        EdgeModel learned = fromV3.closeWindow().orElseThrow();
        assertEquals(fromV1.closeWindow().orElseThrow(), learned);
        assertEquals(1, learned.version());
        // One-invocation reports with the uniform model are mostly first occurrences, which
        // version 3 (finer positions, an escape per new callee) pays more for than version 1.
        assertEquals(296, bytes(v1));
        assertEquals(353, bytes(v3));
    }

    /**
     * Version 4 (the staged tracer's: version 3 plus the dropped-segment count) is learned from
     * exactly as version 3: the same reports in both formats give the same next model.
     */
    @Test
    void versionFourReportsTeachTheSameModelAsVersionThree() throws Exception {
        EdgeModel m0 = EdgeModel.uniform(TABLE);
        ModelUpdater updater = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL);
        PathModelAggregator v3 = new PathModelAggregator(m0, 2, updater);
        PathModelAggregator v4 = new PathModelAggregator(m0, 2, updater);
        CallSitePathEncoder four = new CallSitePathEncoder(m0);
        four.writeFormat(4);
        List<byte[]> threes = deviceReports(new CallSitePathEncoder(m0), 7, 20);
        List<byte[]> fours = deviceReports(four, 7, 20);
        for (int i = 0; i < 20; i++) {
            assertEquals(3, threes.get(i)[0]);
            assertEquals(4, fours.get(i)[0]);
            // One more header byte (0 dropped segments); the end check differs, so the stream's
            // last bytes may too.
            assertEquals(
                    PathDecoder.readHeader(threes.get(i)).codedOffset() + 1,
                    PathDecoder.readHeader(fours.get(i)).codedOffset());
            PathModelAggregator.Outcome a = v3.add(threes.get(i));
            PathModelAggregator.Outcome b = v4.add(fours.get(i));
            assertTrue(b.accepted(), b.reason());
            assertEquals(a.events(), b.events());
        }
        assertEquals(v3.closeWindow().orElseThrow(), v4.closeWindow().orElseThrow());
    }

    @Test
    void rejectedReportsCountNothing() {
        EdgeModel m0 = EdgeModel.uniform(TABLE);
        PathModelAggregator agg =
                new PathModelAggregator(m0, 2, new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
        byte[] report = deviceReports(new PathEncoder(m0), 3, 1).get(0);
        byte[] corrupt = report.clone();
        corrupt[corrupt.length - 3] ^= 0x10;
        PathModelAggregator.Outcome o = agg.add(corrupt);
        assertFalse(o.accepted());
        assertTrue(o.reason().startsWith("corrupt stream"), o.reason());
        byte[] future = report.clone();
        future[0] = 5;
        assertEquals(
                "unsupported path format version 5; this decoder reads versions 1, 3 and 4",
                agg.add(future).reason());
        // Version 2 never shipped; its coding was replaced by version 3's.
        byte[] retired = report.clone();
        retired[0] = 2;
        assertEquals(
                "unsupported path format version 2; this decoder reads versions 1, 3 and 4",
                agg.add(retired).reason());
        assertEquals(-1, agg.add(new byte[0]).modelVersion());
        assertEquals(Optional.empty(), agg.closeWindow());
    }

    @Test
    void countsEachReportFromTheFramesItsHeaderNames() throws Exception {
        EdgeModel m0 = EdgeModel.uniform(TABLE);
        // Device A's report ends inside method 0 and method 1; device B's starts with none open.
        PathEncoder a = new PathEncoder(m0);
        a.enterMethod(0);
        a.branch(1, 0);
        a.enterMethod(1);
        byte[] first = a.finishReport();
        a.branch(0, 1);
        a.exitMethod(1);
        a.branch(1, 1);
        a.exitMethod(0);
        byte[] second = a.finishReport();
        byte[] fromB = deviceReports(new PathEncoder(m0), 5, 1).get(0);
        PathModelAggregator agg =
                new PathModelAggregator(m0, 2, new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
        for (byte[] r : List.of(first, fromB, second)) {
            assertTrue(agg.add(r).accepted());
        }
        // The same counts as decoding each report straight into one counter.
        EdgeCounter direct = new EdgeCounter(TABLE);
        PathDecoder decoder = new PathDecoder(m0);
        for (byte[] r : List.of(first, fromB, second)) {
            decoder.decode(r, direct);
        }
        EdgeModel expected = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL).next(m0, direct);
        assertEquals(expected, agg.closeWindow().orElseThrow());
        // Method 1's frame resumed in the second report: its entry context is still known there,
        // so every entry of method 1 is followed by a counted branch-node successor.
        assertEquals(direct.entries(1), direct.successorCount(1, 0, 2));
    }

    @Test
    void adoptsPublishedModelsAfterARestart() {
        EdgeModel m0 = EdgeModel.uniform(TABLE);
        EdgeModel m7 =
                EdgeModel.builder(m0).version(7).frequencies(1, 0, new int[] {60, 4}).build();
        PathModelAggregator agg =
                new PathModelAggregator(m0, 2, new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
        agg.adopt(m7);
        assertEquals(7, agg.current().version());
        assertEquals(List.of(0L, 7L), agg.keptVersions());
        assertTrue(agg.add(deviceReports(new PathEncoder(m7), 4, 1).get(0)).accepted());
        assertEquals(8, agg.closeWindow().orElseThrow().version());
        assertEquals(List.of(0L, 7L, 8L), agg.keptVersions());
    }
}
