package dev.fieldprof.client.transport;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The background-thread half every device-side publisher shares: a bounded queue that {@link
 * #submit} offers to without waiting, and one daemon thread that hands each record to {@link
 * #deliver}. Subclasses only say how one record is delivered and what to do while idle (retry a
 * spool). Host threads only ever call {@link #submit}, which never blocks and never throws.
 *
 * @param <R> the records published (frequency reports, path reports)
 */
public abstract class AsyncPublisher<R> {
    private final BlockingQueue<R> queue;
    private final Thread publisher;
    private final Duration idleTick;
    protected final TransportStats stats = new TransportStats();
    private final Object progress = new Object();
    private long accepted;
    private long finished;
    private final java.util.concurrent.atomic.AtomicLong threadFailures =
            new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean closing;
    private volatile boolean closed;

    /**
     * @param name suffix of the publisher thread's name
     * @param queueCapacity reports waiting at most, >= 1
     * @param idleTick how often {@link #idle()} runs when nothing is queued, > 0
     */
    protected AsyncPublisher(String name, int queueCapacity, Duration idleTick) {
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be >= 1, got " + queueCapacity);
        }
        if (idleTick.isNegative() || idleTick.isZero()) {
            throw new IllegalArgumentException("idleTick must be > 0, got " + idleTick);
        }
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.idleTick = idleTick;
        this.publisher = new Thread(this::run, "fieldprof-transport-" + name);
        this.publisher.setDaemon(true);
    }

    /** Starts the publisher thread; subclasses call it at the end of their constructor. */
    protected final void start() {
        publisher.start();
    }

    /** Delivers one report on the publisher thread; must count the outcome and not throw. */
    protected abstract void deliver(R report);

    /**
     * Runs once on the publisher thread as it starts, before anything is delivered: for work that
     * should not wait for the first record (connecting to a broker).
     */
    protected void prepare() {}

    /** Runs on the publisher thread when the queue is empty (e.g. to retry spooled reports). */
    protected void idle() {}

    /** Runs on the publisher thread once the queue is drained at close. */
    protected void shutdown() {}

    /**
     * Whether reports handed to {@link #deliver} still wait for their outcome (an asynchronous send
     * in flight); {@link #flush} waits for them too. Subclasses that answer true at some point call
     * {@link #outcomesChanged()} whenever the answer may have turned false.
     */
    protected boolean awaitingOutcomes() {
        return false;
    }

    /** Wakes {@link #flush} callers so they look at {@link #awaitingOutcomes()} again. */
    protected final void outcomesChanged() {
        synchronized (progress) {
            progress.notifyAll();
        }
    }

    /** Hands one record over; returns at once. A full queue or a closed publisher counts a drop. */
    public final void submit(R report) {
        try {
            stats.submitted();
            if (closing || report == null) {
                stats.dropped(DropReason.CLOSED);
                return;
            }
            synchronized (progress) {
                if (!queue.offer(report)) {
                    stats.dropped(DropReason.QUEUE_FULL);
                    return;
                }
                accepted++;
            }
        } catch (Throwable e) {
            // Never into the host; the report is lost and counted.
            stats.dropped(DropReason.QUEUE_FULL);
        }
    }

    /**
     * Takes every record still queued, on the calling thread, and hands each to {@code sink}; they
     * count as finished. For a subclass that must persist what is left when the process exits.
     */
    protected final void drainQueued(Consumer<R> sink) {
        R report;
        while ((report = queue.poll()) != null) {
            R current = report;
            safely(() -> sink.accept(current));
            synchronized (progress) {
                finished++;
                progress.notifyAll();
            }
        }
    }

    /** Sent, spooled and dropped-by-reason counts so far. */
    public final TransportCounters counters() {
        return stats.snapshot();
    }

    private void run() {
        try {
            safely(this::prepare);
            // Work left by an earlier run (a spool) starts at once, not after the first idle tick:
            // a short-lived program may exit before that.
            safely(this::idle);
            while (!closing || !queue.isEmpty()) {
                R report;
                try {
                    report = queue.poll(idleTick.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    if (closing) {
                        report = queue.poll();
                        if (report == null) {
                            break;
                        }
                    } else {
                        continue;
                    }
                }
                if (report == null) {
                    safely(this::idle);
                    continue;
                }
                R current = report;
                safely(() -> deliver(current));
                synchronized (progress) {
                    finished++;
                    progress.notifyAll();
                }
            }
        } finally {
            safely(this::shutdown);
            closed = true;
            synchronized (progress) {
                progress.notifyAll();
            }
        }
    }

    private void safely(Runnable action) {
        try {
            action.run();
        } catch (Throwable e) {
            // A subclass bug must not kill the publisher thread; its outcome was counted or lost.
            threadFailures.incrementAndGet();
        }
    }

    /**
     * Failures the publisher thread caught and survived (a delivery, idle or prepare step that
     * threw); the thread never dies of one and never prints it.
     */
    public final long threadFailures() {
        return threadFailures.get();
    }

    /** Whether the publisher thread runs (from its start until close). */
    public final boolean publisherAlive() {
        return publisher.isAlive();
    }

    /**
     * Waits until every record submitted before the call has been sent, spooled or dropped, or the
     * timeout passed; returns whether it got there. Never for host threads.
     */
    public boolean flush(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (progress) {
            long target = accepted;
            while ((finished < target || awaitingOutcomes()) && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(progress, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return finished >= target && !awaitingOutcomes();
        }
    }

    /** Closes after waiting at most {@code timeout} for the queue to drain. */
    public void close(Duration timeout) {
        if (closing) {
            return;
        }
        flush(timeout);
        closing = true;
        publisher.interrupt();
        try {
            publisher.join(Math.max(1, timeout.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes after waiting at most 5 s for the queue to drain. */
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
