package dev.fieldprof.client.tracing;

import static dev.fieldprof.client.tracing.PathTracerTest.TABLE;
import static dev.fieldprof.client.tracing.PathTracerTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.schemas.PathReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The staged tracer's raw-event memory is one segment buffer per traced thread plus the coder's
 * queue, however many threads trace at once, and every segment a thread filled is either coded or
 * counted as dropped: checked with 200 threads through the tracer's own accounting of the buffers
 * it holds, never with timing.
 */
class StagedPathTracerMemoryTest {
    static final int THREADS = 200;
    static final int SEGMENT = 64;

    final List<PathReport> sent = Collections.synchronizedList(new ArrayList<>());

    /**
     * Runs {@code THREADS} threads at once, each filling exactly {@code segments} segments with
     * calls of method 2 (an enter and an exit each), and returns the most buffers the tracer held
     * whenever the test looked while they ran.
     */
    static int traceConcurrently(StagedPathTracer tracer, int segments) throws Exception {
        CyclicBarrier together = new CyclicBarrier(THREADS);
        AtomicInteger failures = new AtomicInteger();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread thread =
                    new Thread(
                            () -> {
                                try {
                                    together.await(); // all 200 trace at the same time
                                    for (int i = 0; i < segments * SEGMENT / 2; i++) {
                                        PathProbeHandle h = tracer.enter(2);
                                        h.exit(2);
                                    }
                                } catch (Exception e) {
                                    failures.incrementAndGet();
                                }
                            },
                            "traced-" + t);
            running.add(thread);
            thread.start();
        }
        int most = 0;
        for (Thread thread : running) {
            while (thread.isAlive()) {
                most = Math.max(most, tracer.buffersHeld());
                thread.join(1);
            }
        }
        assertThat(failures).hasValue(0);
        return Math.max(most, tracer.buffersHeld());
    }

    /**
     * With the coder stalled, 200 threads fill 5 segments each: the queue of 8 takes the first 8
     * full segments handed over (a thread's own up to its 5), all 992 others are dropped whole; the
     * tracer holds 200 + 8 buffers, never one more (two per thread, 400, before the queue was
     * bounded, and 800 drops).
     */
    @Test
    void aStalledCoderHoldsOneBufferPerThreadAndTheQueueAndDropsTheRestWhole() throws Exception {
        int queue = 8;
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        StagedPathTracer tracer =
                new StagedPathTracer(
                        "device-m",
                        "app:1",
                        0,
                        store,
                        sent::add,
                        1 << 20,
                        SEGMENT,
                        queue,
                        StagedPathTracer.Coding.MANUAL,
                        false);
        int most = traceConcurrently(tracer, 5);
        assertThat(most).isEqualTo(THREADS + queue);
        assertThat(tracer.buffersHeld()).isEqualTo(208);
        assertThat(tracer.bufferBytesHeld()).isEqualTo(208L * 64 * 4);
        assertThat(tracer.droppedSegments()).isEqualTo(1_000L - 8);
        assertThat(tracer.codePending()).isEqualTo(8);
        assertThat(tracer.segmentsCoded()).isEqualTo(8L);
        tracer.endEpoch(); // the ended threads' reports are cut; their buffers are let go
        assertThat(tracer.segmentsCoded() + tracer.droppedSegments()).isEqualTo(1_000L);
        // One report per thread that queued segments (a thread's queued segments are one run),
        // however the 8 were shared out among the threads.
        assertThat(sent).extracting(PathReport::getThread).doesNotHaveDuplicates();
        assertThat(sent.size()).isBetween(1, 8);
        assertThat(tracer.reportEvents()).isEqualTo(8L * SEGMENT);
        // The calling thread's own (empty) trace and the queue's 8 buffers remain.
        assertThat(tracer.buffersHeld()).isEqualTo(1 + queue);
    }

    /**
     * With the coder thread running, 200 threads fill 20 segments each through a queue of 4: the
     * buffers held never exceed 204, and of the 4,000 segments each is coded or dropped, the coded
     * ones all in reports that decode on their own to exactly their events.
     */
    @Test
    void twoHundredThreadsStayWithinTheirBuffersAndTheQueueAndLoseNoSegmentUncounted()
            throws Exception {
        int queue = 4;
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        StagedPathTracer tracer =
                new StagedPathTracer(
                        "device-n",
                        "app:1",
                        0,
                        store,
                        sent::add,
                        256,
                        SEGMENT,
                        queue,
                        StagedPathTracer.Coding.CODER_THREAD,
                        false);
        int most = traceConcurrently(tracer, 20);
        assertThat(most).isBetween(THREADS + 1, THREADS + queue);
        assertThat(tracer.bufferBytesHeld())
                .isEqualTo(tracer.buffersHeld() * tracer.bufferBytesPerSegment())
                .isLessThanOrEqualTo((THREADS + queue) * 64L * 4);
        assertThat(tracer.awaitCoded(Duration.ofSeconds(120).toNanos())).isTrue();
        tracer.endEpoch();
        tracer.close();
        long coded = tracer.segmentsCoded();
        assertThat(coded + tracer.droppedSegments()).isEqualTo(4_000L);
        assertThat(coded).isPositive();
        assertThat(tracer.reportEvents()).isEqualTo(coded * SEGMENT);
        assertThat(tracer.sinkFailures()).isZero();
        long decoded = 0;
        for (PathReport r : sent) {
            PathRecording one = new PathRecording();
            new PathDecoder(store.current()).decode(bytes(r.getCoded()), one);
            assertThat(one.size()).isEqualTo((int) r.getEvents());
            decoded += one.size();
        }
        assertThat(decoded).isEqualTo(coded * SEGMENT);
    }
}
