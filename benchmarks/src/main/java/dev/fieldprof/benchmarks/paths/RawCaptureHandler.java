package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import dev.fieldprof.client.tracing.StagedPathTracer;
import dev.fieldprof.paths.RawPathEvents;

/**
 * The staged tracer's work on the traced thread and nothing after it: each probe finds the calling
 * thread's buffer as {@link StagedPathTracer} does (a racy one-entry cache checked against the
 * current thread, a thread-local behind it), appends one raw event ({@link RawPathEvents}) and, at
 * an exit, reads the epoch; a full buffer is simply reused, its events never coded, scanned or
 * kept. Timed beside the staged tracer, it is the part of the traced thread's time that no coder
 * can remove, so {@code 1.10 x PAP} minus its time is what the coding may cost on the thread.
 */
final class RawCaptureHandler implements PathProbeHandler {
    private final ThreadLocal<Buffer> local = ThreadLocal.withInitial(Buffer::new);
    private volatile long epoch;
    private Buffer last;

    /** One thread's segment buffer, and the thread's handle. */
    private final class Buffer extends PathProbeHandle {
        final Thread owner = Thread.currentThread();
        final int[] events = new int[StagedPathTracer.DEFAULT_SEGMENT_EVENTS];
        int n;
        long seenEpoch;
        long handedOver;

        @Override
        public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {
            append(RawPathEvents.branch(localEdge));
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex) {
            throw new UnsupportedOperationException("the benchmark's jar numbers local edges");
        }

        @Override
        public void exit(int methodId) {
            append(RawPathEvents.exit(methodId));
            if (seenEpoch != epoch) {
                seenEpoch = epoch;
            }
        }

        @Override
        public void exitExceptionally(int methodId) {
            append(RawPathEvents.exitExceptionally(methodId));
            if (seenEpoch != epoch) {
                seenEpoch = epoch;
            }
        }

        void append(int event) {
            int i = n;
            events[i] = event;
            n = i + 1;
            if (i + 1 == events.length) {
                n = 0;
                handedOver++;
            }
        }
    }

    @Override
    public PathProbeHandle enter(int methodId) {
        Buffer b = last;
        if (b == null || b.owner != Thread.currentThread()) {
            b = local.get();
            last = b;
        }
        b.append(RawPathEvents.enter(methodId));
        return b;
    }
}
