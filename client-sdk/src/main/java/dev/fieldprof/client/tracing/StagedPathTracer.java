package dev.fieldprof.client.tracing;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.paths.CallSitePathEncoder;
import dev.fieldprof.paths.EdgeModel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A path tracer that keeps the coding off the traced thread's probe calls: each probe appends one
 * raw event ({@link dev.fieldprof.paths.RawPathEvents}: one int store) to the thread's segment
 * buffer and nothing else (no stack: the open methods are brought forward over a whole segment in
 * one loop when it is handed over, {@link OpenFrames}, and only where segments may be dropped); a
 * full buffer, or one handed over at an exit after the epoch ended, is range coded with the edge
 * model in one loop ({@link CallSitePathEncoder#codeRaw}) into path reports of format version 4,
 * cut at {@code maxReportBytes} or {@link #MAX_REPORT_EVENTS}.
 *
 * <p><b>Where the coding runs</b> ({@link Coding}): on the traced thread at the hand-over (never
 * drops anything; the host waits for one segment's coding), or on one low-priority daemon coder
 * thread. Each traced thread owns the one segment it fills; a full one goes to the coder's queue,
 * which holds at most {@code queueSegments} segments over all threads (at most {@link
 * #MAX_QUEUED_PER_THREAD} of one thread's, coded in the order they were filled), and the thread
 * goes on filling a free segment of the queue's. If the queue has no free segment, or none for this
 * thread, the traced thread never waits: it drops the full segment whole, counts it ({@link
 * #droppedSegments()}) and starts the next from a copy of its open methods, so that the next report
 * (which names the dropped segments in its header) decodes exactly from there on. Once it has
 * dropped one, it drops every segment it fills until the coder has coded all of its queued ones: a
 * report restarts its adaptive state after a gap, and a position's first use in a report costs
 * several times a settled one, so the coder's time goes further on long runs of segments than on
 * single segments between gaps. Every segment that held events is either coded ({@link
 * #segmentsCoded()}) or dropped.
 *
 * <p><b>Memory</b>: raw-event buffers of at most {@code (threads + queueSegments) * segmentEvents *
 * 4} bytes ({@link #bufferBytesHeld()}; the queue's segments are made on first need and kept),
 * where threads are the traced threads alive or not yet seen ended by {@link #endEpoch()}; per
 * thread also the open methods at its segment's start, one int per frame (grown, never shrunk, at a
 * new deepest stack), a ring of {@code min(queueSegments, MAX_QUEUED_PER_THREAD)} references for
 * its queued segments, and its {@link CallSitePathEncoder}. With 8,192 events a segment and a queue
 * of 16, 200 threads hold 216 segments, 6.75 MiB.
 *
 * <p>No probe call allocates except the first of a thread and a hand-over that finds a stack deeper
 * than any before it. Probe calls never throw or block (with {@link Coding#CODER_THREAD}); the
 * coder thread swallows what the sink throws and counts it.
 */
public final class StagedPathTracer extends DevicePathTracer {
    /** Where segments are coded. */
    public enum Coding {
        /** On the traced thread when it hands a segment over; nothing is dropped. */
        TRACED_THREAD,
        /** On one low-priority daemon thread; a segment it has no time for is dropped. */
        CODER_THREAD,
        /** Only when {@link #codePending()} is called: for tests that need a stalled coder. */
        MANUAL
    }

    /** Default raw events per segment buffer. */
    public static final int DEFAULT_SEGMENT_EVENTS = 1 << 13;

    /**
     * Events after which a report without raw events is cut whatever its size: half the events a
     * decoder accepts by default ({@code PathDecoder.DEFAULT_MAX_EVENTS}), leaving room for the
     * exits one exception unwinds past the cut. Every report restarts the coder's adaptive state,
     * and a position's first use in a report costs several times a settled one, so a report spans
     * as many events as its bytes allow. A debug report, which also carries its raw events, is cut
     * at {@link PathTracer#MAX_REPORT_EVENTS}.
     */
    public static final int MAX_REPORT_EVENTS = 1 << 19;

    /** Default full segments the coder's queue holds at most, over all threads. */
    public static final int DEFAULT_QUEUE_SEGMENTS = 16;

    /** Full segments of one thread the coder's queue holds at most. */
    public static final int MAX_QUEUED_PER_THREAD = 64;

    private final int segmentEvents;
    private final int queueSegments;
    private final int threadQueue;
    private final long maxReportEvents;
    private final Coding coding;
    // The queue's segments not in use, a slot each; queueBuffers counts those made (never more
    // than queueSegments), which are free or queued: each thread holds exactly its filling one.
    private final AtomicReferenceArray<Segment> free;
    private final AtomicInteger queueBuffers = new AtomicInteger();
    private final ThreadLocal<ThreadTrace> local = ThreadLocal.withInitial(this::newThread);
    private final List<ThreadTrace> threads = new CopyOnWriteArrayList<>();
    private final AtomicInteger threadNumbers = new AtomicInteger();
    private final AtomicLong droppedSegments = new AtomicLong();
    private final AtomicLong segmentsCoded = new AtomicLong();
    private volatile long epoch;
    private volatile Thread coder;
    private volatile boolean closed;

    // Racy one-entry cache of the last thread's trace, as in PathTracer.
    private ThreadTrace last;

    /**
     * @param deviceId pseudonymous device id, the Kafka key
     * @param appVersion 'app:version' of the traced program
     * @param variant probe-plan variant the device traces
     * @param models source of the model to code with
     * @param sink where finished reports go (called from the coding thread)
     * @param maxReportBytes a report is cut once its coded stream reaches this size
     * @param segmentEvents raw events per segment buffer, >= 16
     * @param coding where segments are coded
     * @param debug if true, reports also carry the raw events
     */
    public StagedPathTracer(
            String deviceId,
            String appVersion,
            int variant,
            EdgeModelStore models,
            PathReportSink sink,
            int maxReportBytes,
            int segmentEvents,
            Coding coding,
            boolean debug) {
        this(
                deviceId,
                appVersion,
                variant,
                models,
                sink,
                maxReportBytes,
                segmentEvents,
                DEFAULT_QUEUE_SEGMENTS,
                coding,
                debug);
    }

    /**
     * As above, with the coder's queue holding at most {@code queueSegments} full segments (>= 1)
     * over all threads.
     */
    public StagedPathTracer(
            String deviceId,
            String appVersion,
            int variant,
            EdgeModelStore models,
            PathReportSink sink,
            int maxReportBytes,
            int segmentEvents,
            int queueSegments,
            Coding coding,
            boolean debug) {
        super(deviceId, appVersion, variant, models, sink, maxReportBytes, debug);
        if (segmentEvents < 16) {
            throw new IllegalArgumentException("segmentEvents must be >= 16, got " + segmentEvents);
        }
        if (queueSegments < 1) {
            throw new IllegalArgumentException("queueSegments must be >= 1, got " + queueSegments);
        }
        this.segmentEvents = segmentEvents;
        this.queueSegments = queueSegments;
        this.threadQueue = Math.min(queueSegments, MAX_QUEUED_PER_THREAD);
        this.free = new AtomicReferenceArray<>(queueSegments);
        this.coding = coding;
        this.maxReportEvents = debug ? PathTracer.MAX_REPORT_EVENTS : MAX_REPORT_EVENTS;
    }

    /** Raw events of one thread, between two hand-overs. */
    static final class Segment {
        final int[] events;
        int length;
        boolean cutAfter;
        int droppedBefore; // whole segments dropped just before this one
        int[] startFrames = new int[16]; // open methods at a drop, outermost first
        int startDepth;

        Segment(int capacity) {
            events = new int[capacity];
        }
    }

    /** Per traced thread: its buffers and stack (owner only) and its coder state (under lock). */
    private final class ThreadTrace extends TracedThread {
        // Traced-thread side (and epoch, in TracedThread).
        int[] buf;
        int n;
        Segment filling;
        // Frames open at the filling segment's start; kept only where segments may be dropped.
        final OpenFrames open = new OpenFrames();
        // Full segments handed over and not yet coded, in filling order: a ring the owner appends
        // to (publishing with the tail) and the coder takes from under this trace's lock (freeing
        // with the head). Segments queued: tail - head.
        final Segment[] queued = new Segment[threadQueue];
        volatile long head;
        volatile long tail;
        // Owner only: a segment was dropped and the queue has not been empty since.
        boolean dropping;

        // Coder side, only under this trace's lock: encoder, recording, sequence, cutting.

        ThreadTrace(Thread owner, int number, EdgeModel model, long epoch) {
            super(owner, number, model, 4, debug, epoch);
            this.filling = new Segment(segmentEvents);
            this.buf = filling.events;
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {
            append(localEdge << 2 | 1);
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex) {
            append(encoder.localEdge(methodId, blockId, edgeIndex) << 2 | 1);
        }

        @Override
        public void exit(int methodId) {
            append(methodId << 2 | 2);
            if (epoch != StagedPathTracer.this.epoch) {
                handOver(this, true);
            }
        }

        @Override
        public void exitExceptionally(int methodId) {
            append(methodId << 2 | 3);
            if (epoch != StagedPathTracer.this.epoch) {
                handOver(this, true);
            }
        }

        private void append(int event) {
            int i = n;
            buf[i] = event;
            n = i + 1;
            if (i + 1 == buf.length) {
                handOver(this, false);
            }
        }
    }

    private ThreadTrace current() {
        ThreadTrace t = last;
        if (t != null && t.owner == Thread.currentThread()) {
            return t;
        }
        t = local.get();
        last = t;
        return t;
    }

    private ThreadTrace newThread() {
        ThreadTrace t =
                new ThreadTrace(
                        Thread.currentThread(),
                        threadNumbers.getAndIncrement(),
                        models.current(),
                        epoch);
        threads.add(t);
        return t;
    }

    @Override
    public PathProbeHandle enter(int methodId) {
        ThreadTrace t = current();
        t.append(methodId << 2);
        return t;
    }

    /**
     * Hands the owner's filling segment to the coder (or codes it, on the traced thread), or drops
     * it if the queue has no room for it, or if the thread dropped one since its queue was last
     * empty. Called by the owner only.
     */
    private void handOver(ThreadTrace t, boolean cut) {
        Segment full = t.filling;
        full.length = t.n;
        full.cutAfter = cut;
        if (coding == Coding.TRACED_THREAD) {
            synchronized (t) {
                code(t, full);
            }
            resetFilling(t, full);
            if (cut) {
                t.epoch = epoch;
            }
            return;
        }
        long tail = t.tail;
        long waiting = tail - t.head;
        if (waiting == 0) {
            t.dropping = false;
        }
        Segment next;
        if ((t.dropping && !cut) || waiting == threadQueue || (next = takeFree()) == null) {
            if (!cut) { // the coder is behind: drop this segment whole, never wait
                t.dropping = true;
                droppedSegments.incrementAndGet();
                OpenFrames open = t.open;
                open.apply(full.events, 0, full.length);
                int depth = open.depth();
                full.droppedBefore++;
                full.startDepth = depth;
                if (full.startFrames.length < depth) {
                    full.startFrames = new int[Math.max(depth, 2 * full.startFrames.length)];
                }
                System.arraycopy(open.methods(), 0, full.startFrames, 0, depth);
                full.length = 0;
                full.cutAfter = false;
                t.n = 0;
            }
            return; // a cut is retried at the next exit
        }
        t.open.apply(full.events, 0, full.length);
        t.filling = next;
        resetFilling(t, next);
        t.queued[(int) (tail % threadQueue)] = full;
        t.tail = tail + 1;
        if (cut) {
            t.epoch = epoch;
        }
        Thread c = coder;
        if (c == null && coding == Coding.CODER_THREAD) {
            c = startCoder();
        }
        if (c != null) {
            LockSupport.unpark(c);
        }
    }

    /** A free segment of the queue's, made if fewer than its bound exist, or null if none is. */
    private Segment takeFree() {
        for (int i = 0; i < queueSegments; i++) {
            Segment s = free.get(i);
            if (s != null && free.compareAndSet(i, s, null)) {
                return s;
            }
        }
        for (int made = queueBuffers.get(); made < queueSegments; made = queueBuffers.get()) {
            if (queueBuffers.compareAndSet(made, made + 1)) {
                return new Segment(segmentEvents);
            }
        }
        return null;
    }

    /** Returns a coded segment to the queue's free ones. */
    private void giveBack(Segment s) {
        // The queue's segments are queueBuffers <= queueSegments: a slot is free for each.
        for (int i = 0; i < queueSegments; i++) {
            if (free.get(i) == null && free.compareAndSet(i, null, s)) {
                return;
            }
        }
        queueBuffers.decrementAndGet(); // not reached while the count holds; the segment goes
    }

    private static void resetFilling(ThreadTrace t, Segment s) {
        s.length = 0;
        s.cutAfter = false;
        s.droppedBefore = 0;
        s.startDepth = 0;
        t.buf = s.events;
        t.n = 0;
    }

    private synchronized Thread startCoder() {
        if (coder == null && !closed) {
            Thread c = new Thread(this::coderLoop, "fieldprof-path-coder");
            c.setDaemon(true);
            c.setPriority(Thread.MIN_PRIORITY);
            coder = c;
            c.start();
        }
        return coder;
    }

    private void coderLoop() {
        while (!closed) {
            if (codePending() == 0) {
                LockSupport.parkNanos(this, 10_000_000L);
            }
        }
    }

    /**
     * Codes every thread's queued segments now, on the calling thread (the coder thread's loop;
     * tests drive {@link Coding#MANUAL} tracers with it): the oldest of each thread in turn, until
     * none is queued.
     *
     * @return the segments coded
     */
    public int codePending() {
        return codePending(Integer.MAX_VALUE);
    }

    /** As {@link #codePending()}, stopping after {@code atMost} segments (tests). */
    int codePending(int atMost) {
        int coded = 0;
        int pass;
        do {
            pass = 0;
            for (ThreadTrace t : threads) {
                if (coded + pass < atMost && t.head != t.tail) {
                    synchronized (t) {
                        pass += codeOldest(t) ? 1 : 0;
                    }
                }
            }
            coded += pass;
        } while (pass > 0 && coded < atMost && !closed);
        return coded;
    }

    /** Codes t's oldest queued segment, if any; under t's lock. */
    private boolean codeOldest(ThreadTrace t) {
        long head = t.head;
        if (head == t.tail) {
            return false;
        }
        int slot = (int) (head % threadQueue);
        Segment s = t.queued[slot];
        code(t, s);
        t.queued[slot] = null;
        giveBack(s); // before the owner can see the thread's slot free
        t.head = head + 1;
        return true;
    }

    /** Codes one segment into the thread's reports; under the trace's lock. */
    private void code(ThreadTrace t, Segment s) {
        CallSitePathEncoder e = t.encoder;
        try {
            if (s.droppedBefore > 0) {
                cut(t); // the report before the gap ends where its events end
                e.resync(s.startFrames, s.startDepth, s.droppedBefore);
            }
            if (e.eventsInReport() == 0) {
                EdgeModel latest = models.current();
                if (latest.version() > e.model().version()) {
                    e.useModel(latest);
                    e.finishReport(); // empty: switches the model for the first report
                }
            }
            int i = 0;
            while (i < s.length) {
                i = e.codeRaw(s.events, i, s.length, maxReportBytes, maxReportEvents);
                if (e.codedBytesSoFar() >= maxReportBytes
                        || e.eventsInReport() >= maxReportEvents) {
                    cut(t);
                }
            }
            if (s.cutAfter) {
                cut(t);
            }
            if (s.length > 0) {
                segmentsCoded.incrementAndGet();
            }
        } catch (RuntimeException | OutOfMemoryError ex) {
            outlet.failed(); // never reaches the host
        }
    }

    /**
     * Ends the epoch: the calling thread's events and those of ended threads are coded and cut now
     * (after any segments still queued for them); every other traced thread hands its segment over
     * with a cut at its next method exit.
     */
    @Override
    public void endEpoch() {
        epoch++;
        flushOwn(local.get());
        List<ThreadTrace> ended = new ArrayList<>();
        for (ThreadTrace t : threads) {
            if (!t.owner.isAlive()) {
                ended.add(t);
            }
        }
        for (ThreadTrace t : ended) {
            flushOwn(t); // its owner is gone: nobody else touches its buffers
            threads.remove(t);
        }
        flushSink();
    }

    /** Cuts the calling thread's events now (after its queued segments), on the calling thread. */
    @Override
    public void cutCurrentThread() {
        flushOwn(local.get());
    }

    /** Codes t's queued and filling segments and cuts; t's owner is the caller or has ended. */
    private void flushOwn(ThreadTrace t) {
        synchronized (t) {
            boolean more = true;
            while (more) {
                more = codeOldest(t); // oldest first, as the coder thread codes them
            }
            Segment s = t.filling;
            s.length = t.n;
            s.cutAfter = true;
            if (coding != Coding.TRACED_THREAD) {
                t.open.apply(s.events, 0, s.length);
            }
            code(t, s);
            resetFilling(t, s);
            t.epoch = epoch;
        }
    }

    /**
     * Waits up to {@code timeoutNanos} for the coder to code every queued segment (benchmarks and
     * tests; never called on a probe path).
     *
     * @return true if none is queued
     */
    public boolean awaitCoded(long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            boolean any = false;
            for (ThreadTrace t : threads) {
                any |= t.head != t.tail;
            }
            if (!any) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread c = coder;
            if (c != null) {
                LockSupport.unpark(c);
            }
            LockSupport.parkNanos(100_000L);
        }
    }

    /** Stops the coder thread (queued segments stay uncoded until the next endEpoch). */
    @Override
    public void close() {
        closed = true;
        Thread c = coder;
        if (c != null) {
            LockSupport.unpark(c);
        }
    }

    /** The coder thread, once started (for its CPU time in benchmarks), or null. */
    public Thread coderThread() {
        return coder;
    }

    /** Whole segments of raw events dropped because the coder was behind. */
    @Override
    public long droppedSegments() {
        return droppedSegments.get();
    }

    /** Segments that held events and were coded so far. */
    public long segmentsCoded() {
        return segmentsCoded.get();
    }

    /** Probe events the encoders dropped (they did not fit the branch table or the frames). */
    @Override
    public long droppedEvents() {
        long n = 0;
        for (ThreadTrace t : threads) {
            synchronized (t) {
                n += t.encoder.droppedEvents();
            }
        }
        return n;
    }

    /**
     * Segment buffers held now: one per traced thread not yet seen ended by {@link #endEpoch()},
     * and those of the coder's queue made so far (at most {@code queueSegments}).
     */
    public int buffersHeld() {
        return threads.size() + queueBuffers.get();
    }

    /** Bytes of the segment buffers held now: {@link #buffersHeld()} segments of ints. */
    @Override
    public long bufferBytesHeld() {
        return (long) buffersHeld() * bufferBytesPerSegment();
    }

    /** Bytes of one segment buffer. */
    public long bufferBytesPerSegment() {
        return 4L * segmentEvents;
    }
}
