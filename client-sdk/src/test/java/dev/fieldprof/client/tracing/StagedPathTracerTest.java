package dev.fieldprof.client.tracing;

import static dev.fieldprof.client.tracing.PathTracerTest.TABLE;
import static dev.fieldprof.client.tracing.PathTracerTest.bytes;
import static dev.fieldprof.client.tracing.PathTracerTest.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.PathProbes;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.paths.PathReportHeader;
import dev.fieldprof.schemas.PathReport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
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
        StagedPathTracer tracer =
                new StagedPathTracer(
                        "device-2",
                        "app:1",
                        0,
                        store,
                        sent::add,
                        1 << 20,
                        segment,
                        StagedPathTracer.Coding.MANUAL,
                        true);
        PathProbes.install(tracer);
        // The first full segment waits for the coder, which never runs: the other 8 full ones
        // are dropped, the last 69 events stay in the filling buffer until the epoch ends.
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
