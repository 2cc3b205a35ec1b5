package dev.fieldprof.client.state;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The exclusive lock of a state directory, held while the privacy ledgers and the budget in it are
 * re-read, checked, spent and rewritten, so that every process and thread on the machine that
 * shares the directory (by default the processes and versions of one app; a configured directory
 * may be shared by several apps) sees the others' reports.
 *
 * <p>Two layers, because an operating-system file lock belongs to the whole JVM: a reentrant lock
 * per directory orders the threads of one JVM, and the one holding it takes {@link
 * FileChannel#tryLock()} on {@value #FILE} in the directory, which orders the processes. Acquiring
 * never waits longer than the bound it is given: the file lock is tried again every few
 * milliseconds until then, and on failure {@link #acquire} throws {@link Busy} so that the caller
 * refuses what it wanted to do (a report is then not made) rather than block the host program. The
 * same thread may acquire the lock again while it holds it. The operating system frees the file
 * lock of a process that dies, so a killed program never leaves the directory locked.
 *
 * <pre>{@code
 * try (StateLock lock = StateLock.acquire(stateDir, StateLock.DEFAULT_WAIT)) {
 *     // re-read, check, spend, write
 * } catch (StateLock.Busy e) {
 *     // refuse: nothing is spent, nothing is sent
 * }
 * }</pre>
 */
public final class StateLock implements AutoCloseable {
    /** The lock file in the state directory; it stays there empty. */
    public static final String FILE = "state.lock";

    /** How long the SDK waits for the lock before it refuses a report: five seconds. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

    private static final long RETRY_MILLIS = 5;
    private static final Map<Path, Holder> HOLDERS = new ConcurrentHashMap<>();

    /** The lock was not obtained within the bound; nothing guarded by it may be done. */
    public static final class Busy extends IOException {
        Busy(String message) {
            super(message);
        }
    }

    /** One directory's locks in this JVM. */
    private static final class Holder {
        final ReentrantLock threads = new ReentrantLock();
        // Guarded by threads: open while some thread of this JVM holds the lock.
        FileChannel channel;
        FileLock fileLock;
    }

    private final Holder holder;
    private boolean released;

    private StateLock(Holder holder) {
        this.holder = holder;
    }

    /**
     * Takes the lock of {@code stateDir} (created if missing), waiting at most {@code wait}.
     *
     * @throws Busy if another thread or process held it all that time
     * @throws IOException if the lock file cannot be opened
     */
    public static StateLock acquire(Path stateDir, Duration wait) throws IOException {
        Path dir = stateDir.toAbsolutePath().normalize();
        Holder holder = HOLDERS.computeIfAbsent(dir, d -> new Holder());
        long deadline = System.nanoTime() + wait.toNanos();
        // An interrupt pending on the host's thread must not cost the report: it is kept for
        // the host and the wait goes on to its bound.
        boolean interrupted = Thread.interrupted();
        try {
            return acquire(holder, dir, deadline);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static StateLock acquire(Holder holder, Path dir, long deadline) throws IOException {
        boolean locked = false;
        while (!locked) {
            try {
                locked =
                        holder.threads.tryLock(
                                Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (!locked) {
                    throw new Busy("state directory lock held by another thread");
                }
            } catch (InterruptedException e) {
                Thread.interrupted(); // the caller restores it
            }
        }
        if (holder.threads.getHoldCount() > 1) {
            return new StateLock(holder); // this thread holds the file lock already
        }
        try {
            lockFile(holder, dir, deadline);
            return new StateLock(holder);
        } catch (IOException | RuntimeException e) {
            holder.threads.unlock();
            throw e;
        }
    }

    private static void lockFile(Holder holder, Path dir, long deadline) throws IOException {
        AtomicFiles.createPrivateDirectories(dir);
        FileChannel channel = AtomicFiles.openPrivate(dir.resolve(FILE));
        try {
            while (true) {
                FileLock lock;
                try {
                    lock = channel.tryLock();
                } catch (OverlappingFileLockException e) {
                    lock = null; // the same directory reached by another path in this JVM
                }
                if (lock != null) {
                    holder.channel = channel;
                    holder.fileLock = lock;
                    return;
                }
                if (System.nanoTime() - deadline >= 0) {
                    throw new Busy("state directory lock held by another process");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS));
                Thread.interrupted(); // the caller restores it
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Releases this hold; the file lock goes with the thread's outermost hold. Idempotent. */
    @Override
    public void close() {
        if (released) {
            return;
        }
        released = true;
        try {
            if (holder.threads.getHoldCount() == 1) {
                FileChannel channel = holder.channel;
                holder.channel = null;
                holder.fileLock = null;
                try {
                    channel.close(); // releases the file lock
                } catch (IOException e) {
                    // the lock goes with the channel whether or not close reports a failure
                }
            }
        } finally {
            holder.threads.unlock();
        }
    }
}
