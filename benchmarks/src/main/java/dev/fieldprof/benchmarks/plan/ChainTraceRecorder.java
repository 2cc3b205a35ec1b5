package dev.fieldprof.benchmarks.plan;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import java.util.Arrays;

/**
 * Records one site's full trace for the probe-distribution study: installed as the {@link
 * dev.fieldprof.client.PathProbes} handler of a jar whose every method has path probes, it keeps
 * the entries and exits of the thread that called {@link #start} (branch events are ignored) and
 * repairs nesting with a stack: an exit closes the frames above its method's innermost frame, so a
 * frame left by an exception that the catch-all did not see still closes in order.
 *
 * <p>Bounded: once {@code maxEvents} would be exceeded nothing more is recorded, and {@link
 * #finish} closes the frames still open. One site at a time; the handler methods may be called from
 * any thread.
 */
public final class ChainTraceRecorder extends PathProbeHandle implements PathProbeHandler {
    private final int maxEvents;
    private volatile Thread owner;
    private int[] events = new int[4096];
    private int size;
    private int[] stack = new int[256];
    private int depth;
    private boolean full;
    private long entries;

    /**
     * @param maxEvents most events (entries plus exits) of one trace, {@code >= 2}
     */
    public ChainTraceRecorder(int maxEvents) {
        if (maxEvents < 2) {
            throw new IllegalArgumentException("maxEvents must be >= 2, was " + maxEvents);
        }
        this.maxEvents = maxEvents;
    }

    /** Starts a site's trace on the calling thread. */
    public void start() {
        size = 0;
        depth = 0;
        full = false;
        entries = 0;
        owner = Thread.currentThread();
    }

    /** Ends the trace: closes the frames still open and returns it. */
    public ChainTrace finish() {
        owner = null;
        while (depth > 0) {
            append(~stack[--depth]);
        }
        return ChainTrace.wrap(Arrays.copyOf(events, size));
    }

    /** Method entries seen since {@link #start}, also those past the bound. */
    public long entries() {
        return entries;
    }

    /** Whether the bound cut the trace short. */
    public boolean truncated() {
        return full;
    }

    /** Returns itself, the handle of the one recorded thread, to that thread only. */
    @Override
    public PathProbeHandle enter(int methodId) {
        if (Thread.currentThread() != owner) {
            return null;
        }
        entries++;
        // Room for this entry and the exits of every open frame, this one's included.
        if (full || size + depth + 2 > maxEvents) {
            full = true;
            return this;
        }
        if (depth == stack.length) {
            stack = Arrays.copyOf(stack, 2 * depth);
        }
        stack[depth++] = methodId;
        append(methodId);
        return this;
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {}

    @Override
    public void branch(int methodId, int blockId, int edgeIndex) {}

    @Override
    public void exit(int methodId) {
        if (Thread.currentThread() != owner || full) {
            return;
        }
        int frame = depth - 1;
        while (frame >= 0 && stack[frame] != methodId) {
            frame--;
        }
        if (frame < 0) {
            return; // entered before start()
        }
        while (depth > frame) {
            append(~stack[--depth]);
        }
    }

    @Override
    public void exitExceptionally(int methodId) {
        exit(methodId);
    }

    private void append(int event) {
        if (size == events.length) {
            events = Arrays.copyOf(events, 2 * size);
        }
        events[size++] = event;
    }
}
