package dev.fieldprof.client.tracing;

import dev.fieldprof.paths.BranchTable;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The newest edge model a device may code with (docs/architecture.md, "Paths"): starts from the
 * uniform model, version 0, and adopts a published model only if it is for this app version, for
 * exactly this code's branch nodes ({@code branchFingerprint}) and newer than the one held: a model
 * of the held version from another writer is refused as a conflict, since the reports coded with
 * the held one name its writer. Encoders read it when they cut a report, so a thread switches
 * models only between reports. Thread-safe.
 */
public final class EdgeModelStore {
    private final String appVersion;
    private final BranchTable table;
    private final long fingerprint;
    private final AtomicReference<EdgeModel> current;
    private final boolean[] traced;
    private final AtomicLong refused = new AtomicLong();
    private volatile String lastRefusal;

    public EdgeModelStore(String appVersion, BranchTable table) {
        this(appVersion, table, null);
    }

    /**
     * A store of a device that traces only some methods (its probe-plan variant): it adopts each
     * model for exactly those ({@link EdgeModel#restrictedTo}).
     *
     * @param traced one flag per method of {@code table}, or null for all methods
     * @throws IllegalArgumentException if {@code traced} does not have one flag per method
     */
    public EdgeModelStore(String appVersion, BranchTable table, boolean[] traced) {
        if (traced != null && traced.length != table.methodCount()) {
            throw new IllegalArgumentException(
                    "need one traced flag per method ("
                            + table.methodCount()
                            + "), got "
                            + traced.length);
        }
        this.traced = traced == null ? null : traced.clone();
        this.appVersion = appVersion;
        this.table = table;
        this.fingerprint = EdgeModel.branchFingerprint(table);
        this.current = new AtomicReference<>(EdgeModel.uniform(table));
    }

    /** The model new reports should be coded with. */
    public EdgeModel current() {
        return current.get();
    }

    public BranchTable branchTable() {
        return table;
    }

    public String appVersion() {
        return appVersion;
    }

    /**
     * Offers a published model.
     *
     * @return true if it was adopted (right app version and fingerprint, newer than the current)
     */
    public boolean offer(dev.fieldprof.schemas.EdgeModel record) {
        if (!record.getAppVersion().toString().equals(appVersion)) {
            return false; // another app's model on the shared topic: not a refusal
        }
        if (record.getBranchFingerprint() != fingerprint) {
            refuse(
                    "model "
                            + record.getVersion()
                            + " has branch fingerprint "
                            + Long.toHexString(record.getBranchFingerprint())
                            + ", this code "
                            + Long.toHexString(fingerprint));
            return false;
        }
        EdgeModel held = current.get();
        if (record.getVersion() == held.version()
                && !record.getWriter().toString().equals(held.writer())) {
            // Two jobs published this version: keep the one adopted, which the reports name.
            refuse(
                    "model "
                            + record.getVersion()
                            + " of writer '"
                            + record.getWriter()
                            + "' conflicts with the adopted one of writer '"
                            + held.writer()
                            + "'");
            return false;
        }
        if (record.getVersion() <= held.version()) {
            return false;
        }
        EdgeModel model;
        try {
            model = EdgeModelRecords.fromRecord(record, table);
            if (traced != null) {
                model = model.restrictedTo(traced);
            }
        } catch (IllegalArgumentException e) {
            refuse(e.getMessage());
            return false;
        }
        EdgeModel seen;
        do {
            seen = current.get();
            if (model.version() <= seen.version()) {
                return false;
            }
        } while (!current.compareAndSet(seen, model));
        synchronized (this) {
            notifyAll();
        }
        return true;
    }

    /**
     * Waits until a model of at least {@code version} is held (for tools and tests).
     *
     * @return true if it is, false if {@code timeout} passed first
     */
    public synchronized boolean awaitVersion(long version, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (current.get().version() < version) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    private void refuse(String reason) {
        refused.incrementAndGet();
        lastRefusal = reason;
    }

    /** Models refused for a wrong fingerprint, invalid content or a conflicting writer. */
    public long refused() {
        return refused.get();
    }

    /** Why the last model was refused, or null. */
    public String lastRefusal() {
        return lastRefusal;
    }
}
