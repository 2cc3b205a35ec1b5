package dev.fieldprof.client.tracing;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.paths.CallSitePathEncoder;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.schemas.PathReport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The device side of adaptive path profiling (docs/architecture.md, "Paths"; after AdapTracer,
 * docs/references.md): one {@link CallSitePathEncoder} (path format version 3) per traced thread,
 * coding with the {@link EdgeModelStore}'s model, cut into {@link PathReport}s when a report
 * reaches {@code maxReportBytes} or an epoch ends, and handed to a {@link PathReportSink}. A thread
 * adopts the store's newer model at the cut, so every report is coded with one model version and
 * names it. {@code PathProbes} calls it.
 *
 * <p>An epoch end ({@link #endEpoch()}) cuts the calling thread's report and those of threads that
 * have ended at once; any other live thread cuts its report at its own next method exit, because
 * only the owning thread touches its encoder (no lock on the probe path). The thread is looked up
 * once per invocation, at its entry probe, whose returned handle takes the invocation's other
 * events; after warm-up no probe event allocates outside debug mode (a report allocates its bytes
 * and its record at the cut). In debug mode each report also carries the raw events (PathRecording
 * bytes) so decoded == recorded can be checked.
 */
public final class PathTracer extends DevicePathTracer {
    /** Default size at which a thread's report is cut (coded bytes). */
    public static final int DEFAULT_MAX_REPORT_BYTES = 16 * 1024;

    /**
     * Events after which a report is cut whatever its size, so a debug report's raw events (a few
     * bytes each) stay well below Kafka's default 1 MB record limit.
     */
    public static final int MAX_REPORT_EVENTS = 1 << 16;

    private final ThreadLocal<ThreadTrace> local = ThreadLocal.withInitial(this::newThread);
    private final List<ThreadTrace> threads = new CopyOnWriteArrayList<>();
    private final AtomicInteger threadNumbers = new AtomicInteger();
    private volatile long epoch;

    // Racy one-entry cache of the last thread's trace: valid only if its final owner is the
    // caller, so a stale or foreign value is detected; spares the ThreadLocal lookup per event.
    private ThreadTrace last;

    /**
     * @param deviceId pseudonymous device id, the Kafka key
     * @param appVersion 'app:version' of the traced program
     * @param variant probe-plan variant the device traces
     * @param models source of the model to code with (uniform until a newer one is adopted)
     * @param sink where finished reports go
     * @param maxReportBytes a thread's report is cut once its coded stream reaches this size
     * @param debug if true, reports also carry the raw events
     */
    public PathTracer(
            String deviceId,
            String appVersion,
            int variant,
            EdgeModelStore models,
            PathReportSink sink,
            int maxReportBytes,
            boolean debug) {
        super(deviceId, appVersion, variant, models, sink, maxReportBytes, debug);
    }

    /** Per traced thread: its encoder, coding each event at once. Only its owner calls it. */
    private final class ThreadTrace extends TracedThread {
        ThreadTrace(Thread owner, int number, EdgeModel model, boolean debug, long epoch) {
            super(owner, number, model, 3, debug, epoch);
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {
            before(this);
            encoder.branch(localEdge, blockId, edgeIndex);
            if (encoder.codedBytesSoFar() >= LOOP_CUT_FACTOR * maxReportBytes) {
                after(this); // a loop that exits no method for long: cut it anyway
            }
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex) {
            // Edges are numbered by the branch layout, which every model of the encoder shares.
            branch(methodId, blockId, edgeIndex, encoder.localEdge(blockId, edgeIndex));
        }

        @Override
        public void exit(int methodId) {
            before(this);
            encoder.exitMethod(methodId);
            after(this);
        }

        @Override
        public void exitExceptionally(int methodId) {
            before(this);
            encoder.exitExceptionally(methodId);
            after(this);
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
                        debug,
                        epoch);
        threads.add(t);
        return t;
    }

    /**
     * Entry probe of the calling thread (see {@code PathProbes}): the one place the thread's trace
     * is looked up; the invocation's branches and exit go to the returned handle.
     */
    @Override
    public PathProbeHandle enter(int methodId) {
        ThreadTrace t = current();
        before(t);
        t.encoder.enterMethod(methodId);
        return t;
    }

    /**
     * Reports are cut (and the epoch checked) at exits only, so enters and branches pay neither
     * check; a frame that loops without any exit is cut once its report reaches this many times the
     * report size.
     */
    static final int LOOP_CUT_FACTOR = 4;

    /**
     * At the first event of a report, switches to a newer adopted model right away (the empty
     * report is dropped), so a model reaches the very next report and not the one after.
     */
    private void before(ThreadTrace t) {
        if (t.encoder.eventsInReport() == 0 && !t.cutting) {
            EdgeModel latest = models.current();
            if (latest.version() > t.encoder.model().version()) {
                t.encoder.useModel(latest);
                t.encoder.finishReport();
            }
        }
    }

    private void after(ThreadTrace t) {
        if (t.epoch != epoch
                || t.encoder.codedBytesSoFar() >= maxReportBytes
                || t.encoder.eventsInReport() >= MAX_REPORT_EVENTS) {
            t.epoch = epoch;
            cut(t);
        }
    }

    /**
     * Ends the epoch: cuts the calling thread's report and those of ended threads now; every other
     * traced thread cuts its report at its next method exit.
     */
    @Override
    public void endEpoch() {
        epoch++;
        ThreadTrace mine = local.get();
        mine.epoch = epoch;
        cut(mine);
        List<ThreadTrace> ended = new ArrayList<>();
        for (ThreadTrace t : threads) {
            if (!t.owner.isAlive()) {
                ended.add(t);
            }
        }
        for (ThreadTrace t : ended) {
            synchronized (t) {
                cut(t);
            }
            threads.remove(t);
        }
        flushSink();
    }

    /** Cuts the calling thread's current report now (if it coded any event). */
    @Override
    public void cutCurrentThread() {
        cut(local.get());
    }

    /** Probe calls dropped by the encoders (they did not fit the branch table or the frames). */
    @Override
    public long droppedEvents() {
        long n = 0;
        for (ThreadTrace t : threads) {
            n += t.encoder.droppedEvents();
        }
        return n;
    }
}
