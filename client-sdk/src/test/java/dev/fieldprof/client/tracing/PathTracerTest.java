package dev.fieldprof.client.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.PathProbes;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.EdgeCounter;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import dev.fieldprof.paths.ModelUpdater;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.schemas.PathReport;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PathTracerTest {
    static final ArrayBranchTable TABLE =
            BranchTableText.parse("fieldprof-branches 1\nmethods 3\n0 0:2 5:3\n1 2:2\n");

    final List<PathReport> sent = new ArrayList<>();
    final PathReportSink sink = sent::add;

    @AfterEach
    void off() {
        PathProbes.uninstall();
    }

    /** A deterministic program: a loop with a skewed branch, a switch, recursion, a throw. */
    static void workload(int iterations) {
        Object h = PathProbes.enter(0);
        for (int i = 0; i < iterations; i++) {
            PathProbes.branch(h, 0, 0, i % 9 == 8 ? 1 : 0);
            PathProbes.branch(h, 0, 5, i % 3 == 0 ? 2 : 0);
            recurse(i % 4);
            if (i % 25 == 24) {
                Object h2 = PathProbes.enter(2);
                Object h1 = PathProbes.enter(1);
                PathProbes.exitExceptionally(h1, 1);
                PathProbes.exitExceptionally(h2, 2);
            }
        }
        PathProbes.branch(h, 0, 0, 1);
        PathProbes.exit(h, 0);
    }

    static void recurse(int depth) {
        Object h = PathProbes.enter(1);
        PathProbes.branch(h, 1, 2, depth == 0 ? 1 : 0);
        if (depth > 0) {
            recurse(depth - 1);
        }
        PathProbes.exit(h, 1);
    }

    static PathRecording decode(PathReport r, EdgeModel model) throws Exception {
        PathRecording out = new PathRecording();
        new PathDecoder(model).decode(bytes(r.getCoded()), out);
        return out;
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** A report says only the UTC day it was cut on, as a frequency report does. */
    @Test
    void aReportCarriesTheStartOfItsUtcDayNotTheTimeItWasCut() {
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        PathTracer tracer = new PathTracer("device-1", "app:1", 0, store, sink, 1 << 20, false);
        PathProbes.install(tracer);
        Instant dayBefore = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.DAYS);
        workload(10);
        tracer.endEpoch();
        Instant dayAfter = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.DAYS);
        assertThat(sent).hasSize(1);
        Instant created = sent.get(0).getCreatedAtMillis();
        assertThat(created).isIn(dayBefore, dayAfter);
        assertThat(created.toEpochMilli() % 86_400_000L).isZero();
        assertThat(PathReportOutlet.dayOf(Instant.parse("2026-03-01T17:42:13.456Z").toEpochMilli()))
                .isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
    }

    @Test
    void debugReportsDecodeToTheRecordedEventsAndShrinkAfterAModelUpdate() throws Exception {
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        PathTracer tracer = new PathTracer("device-1", "app:1", 0, store, sink, 1 << 20, true);
        PathProbes.install(tracer);
        workload(400);
        tracer.endEpoch();
        assertThat(sent).hasSize(1);
        PathReport first = sent.get(0);
        assertThat(first.getModelVersion()).isEqualTo(0L);
        PathRecording decoded = decode(first, store.current());
        assertThat(decoded).isEqualTo(PathRecording.fromBytes(bytes(first.getRaw())));
        assertThat(first.getEvents()).isEqualTo(decoded.size());

        EdgeCounter counts = new EdgeCounter(TABLE);
        decoded.replay(counts);
        EdgeModel next =
                new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL).next(store.current(), counts);
        dev.fieldprof.schemas.EdgeModel record =
                EdgeModelRecords.toRecord(next, "app:1", Instant.EPOCH, 1);
        assertThat(EdgeModelRecords.fromRecord(record, TABLE)).isEqualTo(next);
        assertThat(store.offer(record)).isTrue();
        assertThat(store.offer(record)).as("same version twice").isFalse();

        workload(400);
        tracer.endEpoch();
        PathReport second = sent.get(1);
        assertThat(second.getModelVersion()).isEqualTo(1L);
        assertThat(decode(second, next)).isEqualTo(PathRecording.fromBytes(bytes(second.getRaw())));
        assertThat(second.getSequence()).isEqualTo(1L);
        int before = first.getCoded().remaining();
        int after = second.getCoded().remaining();
        System.out.printf("path report bytes: uniform %d, model 1 %d%n", before, after);
        assertThat(before).isEqualTo(242);
        assertThat(after).isEqualTo(229);
    }

    @Test
    void threadsTraceApartAndEachThreadsReportsDecodeToItsOwnRun() throws Exception {
        List<PathReport> reports = java.util.Collections.synchronizedList(new ArrayList<>());
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        PathTracer tracer = new PathTracer("device-4", "app:1", 0, store, reports::add, 64, true);
        PathProbes.install(tracer);
        int threads = 4;
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
        tracer.endEpoch(); // cuts the ended threads' reports
        assertThat(tracer.droppedEvents()).isZero();
        // Each thread's reports, in sequence order, decode to exactly what it recorded; their
        // event counts tell the threads apart (each ran its own number of iterations).
        java.util.Map<Integer, List<PathReport>> byThread = new java.util.TreeMap<>();
        for (PathReport r : reports) {
            byThread.computeIfAbsent(r.getThread(), k -> new ArrayList<>()).add(r);
        }
        assertThat(byThread).hasSize(threads);
        List<Long> eventsPerThread = new ArrayList<>();
        for (List<PathReport> mine : byThread.values()) {
            mine.sort(java.util.Comparator.comparingLong(PathReport::getSequence));
            PathRecording decoded = new PathRecording();
            PathRecording raw = new PathRecording();
            PathDecoder decoder = new PathDecoder(store.current());
            for (int i = 0; i < mine.size(); i++) {
                assertThat(mine.get(i).getSequence()).isEqualTo((long) i);
                decoder.decode(bytes(mine.get(i).getCoded()), decoded);
                PathRecording.fromBytes(bytes(mine.get(i).getRaw())).replay(raw);
            }
            assertThat(decoded).isEqualTo(raw);
            eventsPerThread.add((long) decoded.size());
        }
        eventsPerThread.sort(null);
        List<Long> want = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            // The same workload traced alone on this thread: the events each thread must have.
            PathTracer single = new PathTracer("d", "app:1", 0, store, r -> {}, 1 << 20, false);
            PathProbes.install(single);
            workload(50 + 40 * t);
            single.endEpoch();
            want.add(single.reportEvents());
        }
        assertThat(eventsPerThread).containsExactlyElementsOf(want);
        assertThat(want).containsExactly(480L, 864L, 1252L, 1636L);
    }

    @Test
    void everyInvocationOfAThreadGetsThatThreadsOwnHandleAndNoOtherThreadGetsIt() throws Exception {
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        PathTracer tracer = new PathTracer("device-5", "app:1", 0, store, sink, 1 << 20, false);
        PathProbes.install(tracer);
        Object outer = PathProbes.enter(0);
        Object inner = PathProbes.enter(1);
        assertThat(outer).isNotNull().isSameAs(inner);
        PathProbes.exit(inner, 1);
        Object[] other = new Object[2];
        Thread thread =
                new Thread(
                        () -> {
                            other[0] = PathProbes.enter(0);
                            other[1] = PathProbes.enter(1);
                            PathProbes.exit(other[1], 1);
                            PathProbes.exit(other[0], 0);
                        });
        thread.start();
        thread.join();
        assertThat(other[0]).isNotNull().isSameAs(other[1]).isNotSameAs(outer);
        assertThat(PathProbes.enter(1)).as("after the other thread ran").isSameAs(outer);
        PathProbes.exit(outer, 1);
        PathProbes.exit(outer, 0);
        tracer.endEpoch();
        // Each thread's report holds its own balanced invocations: 6 and 4 events.
        assertThat(sent).extracting(PathReport::getEvents).containsExactlyInAnyOrder(6L, 4L);
        assertThat(tracer.droppedEvents()).isZero();
    }

    @Test
    void sizeLimitCutsReportsThatEachDecodeAloneAndTogetherGiveTheRun() throws Exception {
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        PathTracer tracer = new PathTracer("device-2", "app:1", 3, store, sink, 16, true);
        PathProbes.install(tracer);
        workload(300);
        tracer.endEpoch();
        System.out.println("reports of <= 16 coded bytes: " + sent.size());
        assertThat(sent.size()).isGreaterThan(5);
        PathRecording all = new PathRecording();
        PathRecording raw = new PathRecording();
        for (int i = 0; i < sent.size(); i++) {
            PathReport r = sent.get(i);
            assertThat(r.getSequence()).isEqualTo((long) i);
            assertThat(r.getVariant()).isEqualTo(3);
            decode(r, store.current()).replay(all);
            PathRecording.fromBytes(bytes(r.getRaw())).replay(raw);
        }
        assertThat(all).isEqualTo(raw);
        assertThat(tracer.droppedEvents()).isZero();
    }

    @Test
    void keepsTheAdoptedModelOfAVersionAndNamesItsWriterInTheReports() throws Exception {
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        PathTracer tracer = new PathTracer("device-3", "app:1", 0, store, sink, 1 << 20, true);
        PathProbes.install(tracer);
        EdgeModel fromA =
                EdgeModel.builder(EdgeModel.uniform(TABLE))
                        .version(1)
                        .writer("job-a")
                        .frequencies(0, 0, new int[] {7, 1})
                        .build();
        EdgeModel fromB =
                EdgeModel.builder(EdgeModel.uniform(TABLE))
                        .version(1)
                        .writer("job-b")
                        .frequencies(0, 0, new int[] {1, 7})
                        .build();
        assertThat(store.offer(EdgeModelRecords.toRecord(fromA, "app:1", Instant.EPOCH, 1)))
                .isTrue();
        assertThat(store.offer(EdgeModelRecords.toRecord(fromB, "app:1", Instant.EPOCH, 1)))
                .as("the same version from another writer")
                .isFalse();
        assertThat(store.refused()).isEqualTo(1);
        assertThat(store.lastRefusal())
                .isEqualTo(
                        "model 1 of writer 'job-b' conflicts with the adopted one of writer"
                                + " 'job-a'");
        assertThat(store.current()).isEqualTo(fromA);

        workload(50);
        tracer.endEpoch();
        PathReport report = sent.get(0);
        assertThat(report.getModelVersion()).isEqualTo(1L);
        assertThat(report.getModelWriter()).isEqualTo("job-a");
        assertThat(decode(report, fromA))
                .isEqualTo(PathRecording.fromBytes(bytes(report.getRaw())));
    }

    @Test
    void refusesModelsForOtherCodeAndProbesNeverThrow() {
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        ArrayBranchTable other = BranchTableText.parse("fieldprof-branches 1\nmethods 3\n0 0:2\n");
        dev.fieldprof.schemas.EdgeModel foreign =
                EdgeModelRecords.toRecord(
                        EdgeModel.builder(EdgeModel.uniform(other)).version(5).build(),
                        "app:1",
                        Instant.EPOCH,
                        0);
        assertThat(store.offer(foreign)).isFalse();
        assertThat(store.refused()).isEqualTo(1L);
        assertThat(store.lastRefusal()).contains("fingerprint");
        assertThat(store.current().version()).isZero();

        // Off until installed: nothing is traced and nothing throws.
        Object off = PathProbes.enter(0);
        assertThat(off).isNull();
        PathProbes.exit(off, 0);
        PathTracer tracer = new PathTracer("d", "app:1", 0, store, sink, 1024, false);
        PathProbes.install(tracer);
        Object h = PathProbes.enter(99);
        PathProbes.branch(h, 0, 77, 0);
        PathProbes.exit(h, 0);
        tracer.endEpoch();
        assertThat(tracer.droppedEvents()).isEqualTo(3L);
        assertThat(PathProbes.failures()).isZero();
        assertThat(sent).isEmpty();
    }
}
