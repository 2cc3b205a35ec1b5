package dev.fieldprof.client.tracing;

import static dev.fieldprof.client.tracing.PathTracerTest.TABLE;
import static dev.fieldprof.client.tracing.PathTracerTest.bytes;
import static dev.fieldprof.client.tracing.PathTracerTest.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.paths.PathReportHeader;
import dev.fieldprof.schemas.PathReport;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The staged tracer's reports decode to exactly the events the probes saw, wherever its segment
 * buffers end (inside a deep call chain, at an exception, at a report cut), and a segment the coder
 * had no time for is missing whole, named by the next report, after which decoding resumes exactly.
 */
class StagedPathTracerTest {
    final List<PathReport> sent = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void off() {
        PathProbes.uninstall();
    }

    /**
     * A debug-mode tracer whose coder runs only when the test calls {@link
     * StagedPathTracer#codePending}, sending its reports to {@link #sent}.
     */
    private StagedPathTracer manualTracer(
            String device, EdgeModelStore store, int maxBytes, int segment, int queueSegments) {
        return new StagedPathTracer(
                device,
                "app:1",
                0,
                store,
                sent::add,
                maxBytes,
                segment,
                queueSegments,
                StagedPathTracer.Coding.MANUAL,
                true);
    }

    /** The events of PathTracerTest's workload, recorded by a tracer that codes each at once. */
    static PathRecording recordedWorkload(int iterations) throws Exception {
        List<PathReport> reports = new ArrayList<>();
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        PathTracer reference = new PathTracer("d", "app:1", 0, store, reports::add, 1 << 20, true);
        PathProbes.install(reference);
        workload(iterations);
        reference.endEpoch();
        PathProbes.uninstall();
        PathRecording all = new PathRecording();
        for (PathReport r : reports) {
            PathRecording.fromBytes(bytes(r.getRaw())).replay(all);
        }
        return all;
    }

    /**
     * The decoded events of reports in sequence order, each also checked against its raw events.
     */
    static PathRecording decodeInOrder(List<PathReport> reports, EdgeModelStore store)
            throws Exception {
        List<PathReport> sorted = new ArrayList<>(reports);
        sorted.sort(Comparator.comparingLong(PathReport::getSequence));
        PathRecording all = new PathRecording();
        PathDecoder decoder = new PathDecoder(store.current());
        for (int i = 0; i < sorted.size(); i++) {
            PathReport r = sorted.get(i);
            assertThat(r.getSequence()).isEqualTo((long) i);
            PathRecording one = new PathRecording();
            decoder.decode(bytes(r.getCoded()), one);
            assertThat(one).isEqualTo(PathRecording.fromBytes(bytes(r.getRaw())));
            assertThat(r.getEvents()).isEqualTo(one.size());
            one.replay(all);
        }
        return all;
    }

    static PathRecording slice(PathRecording run, int from, int to) {
        PathRecording out = new PathRecording();
        for (int i = from; i < to; i++) {
            switch (run.kind(i)) {
                case PathRecording.ENTER -> out.enter(run.methodId(i));
                case PathRecording.BRANCH ->
                        out.branch(run.methodId(i), run.blockId(i), run.edgeIndex(i));
                default -> out.exit(run.methodId(i), run.kind(i) == PathRecording.THROW);
            }
        }
        return out;
    }

    @Test
    void segmentsEndingAnywhereCodeOnTheTracedThreadToExactlyTheRecordedRun() throws Exception {
        PathRecording want = recordedWorkload(300);
        assertThat(want.size()).isEqualTo(2_901);
        // Segment lengths of 16..40 events end inside the recursion (up to 5 frames deep), at the
        // exceptional exits and between; 16- and 64-byte reports cut inside segments.
        for (int segment = 16; segment <= 40; segment += 3) {
            for (int maxBytes : new int[] {16, 64, 1 << 20}) {
                sent.clear();
                EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
                StagedPathTracer tracer =
                        new StagedPathTracer(
                                "device-1",
                                "app:1",
                                0,
                                store,
                                sent::add,
                                maxBytes,
                                segment,
                                StagedPathTracer.Coding.TRACED_THREAD,
                                true);
                PathProbes.install(tracer);
                workload(300);
                tracer.endEpoch();
                PathProbes.uninstall();
                String at = "segment " + segment + ", report bytes " + maxBytes;
                assertThat(decodeInOrder(sent, store).firstDifference(want)).as(at).isEqualTo(-1);
                assertThat(tracer.droppedSegments()).isZero();
                assertThat(tracer.droppedEvents()).isZero();
                assertThat(tracer.reportEvents()).isEqualTo(2_901L);
                for (PathReport r : sent) {
                    PathReportHeader h = PathDecoder.readHeader(bytes(r.getCoded()));
                    assertThat(h.formatVersion()).isEqualTo(4);
                    assertThat(h.droppedSegments()).isZero();
                    // When a report was cut is not sent: only the start of its UTC day.
                    assertThat(r.getCreatedAtMillis().toEpochMilli() % 86_400_000L).isZero();
                }
            }
        }
    }

    @Test
    void aStalledCoderCostsWholeSegmentsThatTheNextReportNamesAndDecodingResumesExactly()
            throws Exception {
        PathRecording want = recordedWorkload(100);
        int n = want.size();
        assertThat(n).isEqualTo(969);
        int segment = 100;
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        StagedPathTracer tracer = manualTracer("device-2", store, 1 << 20, segment, 1);
        PathProbes.install(tracer);
        // The first full segment waits for the coder, which never runs, and fills the queue of
        // one: the other 8 full ones are dropped, the last 69 events stay in the filling buffer
        // until the epoch ends.
        workload(100);
        assertThat(tracer.droppedSegments()).isEqualTo(8L);
        assertThat(sent).isEmpty();
        tracer.endEpoch();
        assertThat(sent).hasSize(2);
        PathReportHeader first = PathDecoder.readHeader(bytes(sent.get(0).getCoded()));
        PathReportHeader second = PathDecoder.readHeader(bytes(sent.get(1).getCoded()));
        assertThat(first.droppedSegments()).isZero();
        assertThat(second.droppedSegments()).isEqualTo(8L);
        assertThat(second.openMethods()).startsWith(0);
        PathRecording decoded = decodeInOrder(sent, store);
        PathRecording expected = slice(want, 0, segment);
        slice(want, 9 * segment, n).replay(expected);
        assertThat(decoded.firstDifference(expected)).isEqualTo(-1);
        assertThat(decoded.size()).isEqualTo(100 + 69);
    }

    /** Calls of methods 0, 1 and 2 in turn (an enter and an exit each), from {@code next[0]} on. */
    private static void calls(int count, int[] next) {
        for (int i = 0; i < count; i++) {
            int m = next[0]++ % 3;
            Object h = PathProbes.enter(m);
            PathProbes.exit(h, m);
        }
    }

    /**
     * A thread's queue holds several of its segments, coded oldest first into one report; once it
     * has dropped one, the thread drops every segment it fills until the coder has coded all of its
     * queued ones, so the coded segments come in runs (a report restarts after each gap).
     */
    @Test
    void afterADropAThreadDropsUntilItsQueueIsEmptyAndItsQueuedSegmentsCodeInOrder()
            throws Exception {
        int segment = 16; // 8 calls
        ProbeLog log = new ProbeLog();
        PathProbes.install(log);
        calls(8 * 6 + 4, new int[1]);
        PathProbes.uninstall();
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        StagedPathTracer tracer = manualTracer("device-7", store, 1 << 20, segment, 3);
        PathProbes.install(tracer);
        int[] next = {0};
        calls(8 * 3, next); // segments 1-3 fill the queue of 3
        assertThat(tracer.droppedSegments()).isZero();
        calls(8, next); // segment 4: the queue is full
        assertThat(tracer.droppedSegments()).isEqualTo(1L);
        assertThat(tracer.codePending(1)).isEqualTo(1); // segment 1
        calls(8, next); // segment 5: the queue has room, but segments 2 and 3 are still in it
        assertThat(tracer.droppedSegments()).isEqualTo(2L);
        assertThat(tracer.codePending()).isEqualTo(2); // segments 2 and 3
        calls(8, next); // segment 6: the queue was empty, so it is queued again
        calls(4, next); // half a segment, in the filling buffer
        assertThat(tracer.droppedSegments()).isEqualTo(2L);
        tracer.endEpoch();
        PathProbes.uninstall();
        List<PathReport> inOrder = new ArrayList<>(sent);
        inOrder.sort(Comparator.comparingLong(PathReport::getSequence));
        assertThat(inOrder).hasSize(2);
        assertThat(inOrder.get(0).getEvents()).isEqualTo(3L * segment); // segments 1-3
        assertThat(inOrder.get(1).getEvents()).isEqualTo(segment + 8L); // segment 6 and the rest
        assertThat(PathDecoder.readHeader(bytes(inOrder.get(0).getCoded())).droppedSegments())
                .isZero();
        assertThat(PathDecoder.readHeader(bytes(inOrder.get(1).getCoded())).droppedSegments())
                .isEqualTo(2L);
        PathRecording decoded = decodeInOrder(inOrder, store);
        assertThat(decoded.firstDifference(expectedAfterDrops(log.events, inOrder, segment)))
                .isEqualTo(-1);
        assertThat(decoded.size()).isEqualTo(4 * segment + 8);
        assertThat(tracer.segmentsCoded()).isEqualTo(5L);
    }

    @Test
    void threadsOnTheCoderThreadLoseOnlyWholeNamedSegments() throws Exception {
        int segment = 64;
        int threads = 6;
        Map<Integer, PathRecording> runsBySize = new TreeMap<>();
        for (int t = 0; t < threads; t++) {
            PathRecording run = recordedWorkload(50 + 40 * t);
            runsBySize.put(run.size(), run);
        }
        assertThat(runsBySize.keySet()).containsExactly(480, 864, 1_252, 1_636, 2_024, 2_412);
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        StagedPathTracer tracer =
                new StagedPathTracer(
                        "device-3",
                        "app:1",
                        0,
                        store,
                        sent::add,
                        256,
                        segment,
                        StagedPathTracer.Coding.CODER_THREAD,
                        true);
        PathProbes.install(tracer);
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int iterations = 50 + 40 * t;
            Thread thread = new Thread(() -> workload(iterations), "traced-" + t);
            running.add(thread);
            thread.start();
        }
        for (Thread thread : running) {
            thread.join();
        }
        tracer.endEpoch(); // codes what the ended threads left and cuts their reports
        tracer.close();
        Map<Integer, List<PathReport>> byThread = new TreeMap<>();
        for (PathReport r : sent) {
            byThread.computeIfAbsent(r.getThread(), k -> new ArrayList<>()).add(r);
        }
        assertThat(byThread).hasSize(threads);
        long dropped = 0;
        List<Integer> sizes = new ArrayList<>();
        for (List<PathReport> mine : byThread.values()) {
            mine.sort(Comparator.comparingLong(PathReport::getSequence));
            // Each thread ran the workload for its own iteration count; which one is told by
            // the events coded plus the events of the dropped segments (each one whole).
            long lost = 0;
            for (PathReport r : mine) {
                lost += PathDecoder.readHeader(bytes(r.getCoded())).droppedSegments();
            }
            PathRecording decoded = decodeInOrder(mine, store);
            int total = (int) (decoded.size() + lost * segment);
            sizes.add(total);
            PathRecording want = runsBySize.get(total);
            assertThat(want).as("a run of %d events", total).isNotNull();
            // Rebuild what the reports must hold: the recorded run less the dropped segments.
            PathRecording expected = new PathRecording();
            int at = 0;
            for (PathReport r : mine) {
                PathReportHeader h = PathDecoder.readHeader(bytes(r.getCoded()));
                at += (int) h.droppedSegments() * segment;
                slice(want, at, at + (int) r.getEvents()).replay(expected);
                at += (int) r.getEvents();
            }
            assertThat(at).isEqualTo(total);
            assertThat(decoded.firstDifference(expected)).isEqualTo(-1);
            dropped += lost;
        }
        sizes.sort(null);
        assertThat(sizes).containsExactly(480, 864, 1_252, 1_636, 2_024, 2_412);
        assertThat(dropped).isEqualTo(tracer.droppedSegments());
    }

    /**
     * A program deeper than the tracer's initial 64 frames: per round a chain of 60-209 frames of
     * method 1; every third chain's bottom opens two frames of method 2 whose exit probes never
     * come (an exception skips them) and throws, and the exception unwinds through exceptional
     * exits until a frame at depth 16k + 5 catches it and returns normally. {@code between} runs
     * after every fourth round (the tests let a stalled coder code there).
     */
    static void deepWorkload(int rounds, Runnable between) {
        Object h = PathProbes.enter(0);
        for (int r = 0; r < rounds; r++) {
            PathProbes.branch(h, 0, 0, r % 7 == 6 ? 1 : 0);
            chain(60 + (r * 37) % 150, r);
            if (r % 4 == 1) {
                between.run();
            }
        }
        PathProbes.exit(h, 0);
    }

    private static void chain(int depth, int round) {
        Object h = PathProbes.enter(1);
        PathProbes.branch(h, 1, 2, depth == 0 ? 1 : 0);
        try {
            if (depth > 0) {
                chain(depth - 1, round);
            } else if (round % 3 == 0) {
                PathProbes.enter(2);
                PathProbes.enter(2);
                throw new IllegalStateException("thrown at the bottom");
            }
        } catch (IllegalStateException e) {
            if (depth % 16 != 5) {
                PathProbes.exitExceptionally(h, 1);
                throw e;
            }
        }
        PathProbes.exit(h, 1);
    }

    /** Logs the probe events as the probes pass them: {kind, method, block, edge} each. */
    static final class ProbeLog extends PathProbeHandle implements PathProbeHandler {
        final List<int[]> events = new ArrayList<>();

        @Override
        public PathProbeHandle enter(int methodId) {
            events.add(new int[] {PathRecording.ENTER, methodId, 0, 0});
            return this;
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {
            branch(methodId, blockId, edgeIndex);
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex) {
            events.add(new int[] {PathRecording.BRANCH, methodId, blockId, edgeIndex});
        }

        @Override
        public void exit(int methodId) {
            events.add(new int[] {PathRecording.EXIT, methodId, 0, 0});
        }

        @Override
        public void exitExceptionally(int methodId) {
            events.add(new int[] {PathRecording.THROW, methodId, 0, 0});
        }
    }

    /**
     * What reports of a run whose probe events were {@code log} must decode to, given what each
     * names as dropped before it and how many events it codes: the events of the segments kept, an
     * exit of a method below the top first closing the frames above it as exceptional exits
     * (written here apart from the tracer, from the format's description).
     */
    static PathRecording expectedAfterDrops(List<int[]> log, List<PathReport> reports, int segment)
            throws Exception {
        PathRecording out = new PathRecording();
        Deque<Integer> stack = new ArrayDeque<>(); // top first
        int at = 0;
        for (PathReport r : reports) {
            long dropped = PathDecoder.readHeader(bytes(r.getCoded())).droppedSegments();
            for (long skip = dropped * segment; skip > 0; skip--) {
                replayInto(log.get(at++), stack, null);
            }
            int start = out.size();
            while (out.size() - start < r.getEvents()) {
                replayInto(log.get(at++), stack, out);
            }
        }
        assertThat(at).isEqualTo(log.size());
        return out;
    }

    private static void replayInto(int[] e, Deque<Integer> stack, PathRecording out) {
        int m = e[1];
        switch (e[0]) {
            case PathRecording.ENTER -> {
                stack.push(m);
                if (out != null) {
                    out.enter(m);
                }
            }
            case PathRecording.BRANCH -> {
                if (out != null) {
                    out.branch(m, e[2], e[3]);
                }
            }
            default -> {
                if (!stack.contains(m)) {
                    return; // no frame of m is open: the exit codes nothing
                }
                while (stack.peek() != m) {
                    int above = stack.pop();
                    if (out != null) {
                        out.exit(above, true);
                    }
                }
                stack.pop();
                if (out != null) {
                    out.exit(m, e[0] == PathRecording.THROW);
                }
            }
        }
    }

    @Test
    void segmentsDroppedInsideDeepChainsAtExceptionsAndAtReportCutsResumeExactly()
            throws Exception {
        ProbeLog log = new ProbeLog();
        PathProbes.install(log);
        deepWorkload(40, () -> {});
        PathProbes.uninstall();
        assertThat(log.events).hasSize(17_020);
        int droppedRuns = 0;
        for (int segment : new int[] {61, 97, 128, 333, 1_000}) {
            for (int maxBytes : new int[] {64, 1 << 20}) {
                sent.clear();
                EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
                StagedPathTracer tracer = manualTracer("device-5", store, maxBytes, segment, 2);
                PathProbes.install(tracer);
                // The coder runs every fourth round only: the two segments after each run are
                // coded, the others that fill before the next run are dropped wherever they end.
                deepWorkload(40, tracer::codePending);
                tracer.endEpoch();
                PathProbes.uninstall();
                String at = "segment " + segment + ", report bytes " + maxBytes;
                List<PathReport> inOrder = new ArrayList<>(sent);
                inOrder.sort(Comparator.comparingLong(PathReport::getSequence));
                PathRecording decoded = decodeInOrder(inOrder, store);
                PathRecording expected = expectedAfterDrops(log.events, inOrder, segment);
                assertThat(decoded.firstDifference(expected)).as(at).isEqualTo(-1);
                long named = 0;
                for (PathReport r : inOrder) {
                    named += PathDecoder.readHeader(bytes(r.getCoded())).droppedSegments();
                }
                assertThat(named).as(at).isEqualTo(tracer.droppedSegments());
                assertThat(tracer.droppedEvents()).as(at).isZero();
                droppedRuns += tracer.droppedSegments() > 0 ? 1 : 0;
            }
        }
        // Segments of 1,000 events: the two queued ones hold the ~1,700 events the rounds between
        // two codings fill, so those two runs drop nothing.
        assertThat(droppedRuns).isEqualTo(8);
    }

    @Test
    void aReportWithoutRawEventsSpansUpToHalfTheDecodersLimit() throws Exception {
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        StagedPathTracer tracer =
                new StagedPathTracer(
                        "device-6",
                        "app:1",
                        0,
                        store,
                        sent::add,
                        1 << 20,
                        1 << 13,
                        StagedPathTracer.Coding.TRACED_THREAD,
                        false);
        PathProbes.install(tracer);
        workload(60_000);
        tracer.endEpoch();
        PathProbes.uninstall();
        assertThat(sent).hasSize(2);
        sent.sort(Comparator.comparingLong(PathReport::getSequence));
        assertThat(sent.get(0).getEvents()).isEqualTo(1L << 19);
        assertThat(sent.get(0).getEvents() + sent.get(1).getEvents()).isEqualTo(579_603L);
        PathRecording decoded = new PathRecording();
        PathDecoder decoder = new PathDecoder(store.current());
        for (PathReport r : sent) {
            decoder.decode(bytes(r.getCoded()), decoded);
        }
        assertThat(decoded.firstDifference(recordedWorkload(60_000))).isEqualTo(-1);
    }

    /**
     * With the coder thread, a traced thread's probe calls allocate nothing at all once warm: the
     * reports are made on the coder thread. Measured with the thread's allocation counter over
     * whole runs of about 10^6 probe calls; a JIT compilation can show up as a few hundred bytes in
     * a round, so one of up to five rounds after two warm-up rounds must be exact.
     */
    @Test
    void tracedThreadAllocatesNothingWhenTheCoderThreadCodes() {
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean)
                        java.lang.management.ManagementFactory.getThreadMXBean();
        mx.setThreadAllocatedMemoryEnabled(true);
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        StagedPathTracer tracer =
                new StagedPathTracer(
                        "device-4",
                        "app:1",
                        0,
                        store,
                        r -> {},
                        64,
                        1 << 10,
                        StagedPathTracer.Coding.CODER_THREAD,
                        false);
        PathProbes.install(tracer);
        List<Long> rounds = new ArrayList<>();
        for (int round = 0; round < 7 && !(round > 2 && rounds.contains(0L)); round++) {
            long before = mx.getCurrentThreadAllocatedBytes();
            workload(100_000); // 966,003 probe calls
            long bytes = mx.getCurrentThreadAllocatedBytes() - before;
            if (round >= 2) {
                rounds.add(bytes);
            }
        }
        tracer.close();
        System.out.println(
                "staged tracer, bytes allocated per round of ~10^6 probe calls: " + rounds);
        assertThat(rounds).contains(0L);
        assertThat(tracer.segmentsCoded() + tracer.droppedSegments()).isGreaterThan(1_000L);
    }
}
