package dev.fieldprof.client;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * Exact per-method event counts of one device runtime, striped per thread so that the hot path is a
 * plain single-writer increment: no lock, no CAS, no allocation. Each stripe only ever grows; the
 * epoch closer sums the stripes and subtracts what it saw last time, so every event lands in
 * exactly one epoch without ever resetting a counter another thread writes. A stripe allocates its
 * counters in pages of 1024 methods on first use, so a thread costs memory only for the methods it
 * runs; stripes of finished threads are folded into one array, so memory is bounded by (live
 * threads + 1) · |V| longs and in practice far below it.
 */
final class EventCounters {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle PAGES = MethodHandles.arrayElementVarHandle(long[][].class);
    private static final int PAGE_BITS = 10;
    private static final int PAGE_SIZE = 1 << PAGE_BITS;

    private final int methodCount;
    private final List<Stripe> stripes = new ArrayList<>();

    /** Totals of folded stripes; slot methodCount holds dropped (out-of-range) ids. */
    private final long[] retired;

    /** Totals seen by the last drain, per slot. */
    private final long[] drained;

    EventCounters(int methodCount) {
        this.methodCount = methodCount;
        this.retired = new long[methodCount + 1];
        this.drained = new long[methodCount + 1];
    }

    int methodCount() {
        return methodCount;
    }

    /** One thread's counters; only that thread writes them. */
    static final class Stripe {
        private final long[][] pages;
        private final int dropSlot;
        private final WeakReference<Thread> owner;
        private volatile boolean abandoned;

        private Stripe(int methodCount, Thread owner) {
            this.pages = new long[(methodCount >>> PAGE_BITS) + 1][];
            this.dropSlot = methodCount;
            this.owner = new WeakReference<>(owner);
        }

        /** The hot path: ids outside [0, |V|) are counted as dropped, never thrown. */
        void increment(int methodId) {
            int slot = Integer.compareUnsigned(methodId, dropSlot) < 0 ? methodId : dropSlot;
            long[] page = pages[slot >>> PAGE_BITS];
            if (page == null) {
                page = newPage(slot >>> PAGE_BITS);
            }
            int index = slot & (PAGE_SIZE - 1);
            // Single writer: a plain read is current; the opaque write keeps the 64-bit value
            // untorn and eventually visible to the summing thread.
            LONGS.setOpaque(page, index, page[index] + 1);
        }

        private long[] newPage(int pageIndex) {
            long[] page = new long[PAGE_SIZE];
            // Release: a reader that sees the page also sees it zero-initialized.
            PAGES.setRelease(pages, pageIndex, page);
            return page;
        }

        /** Adds this stripe's counts to {@code totals} (length |V| + 1). */
        private void addTo(long[] totals) {
            for (int p = 0; p < pages.length; p++) {
                long[] page = (long[]) PAGES.getAcquire(pages, p);
                if (page == null) {
                    continue;
                }
                int base = p << PAGE_BITS;
                int end = Math.min(PAGE_SIZE, totals.length - base);
                for (int i = 0; i < end; i++) {
                    totals[base + i] += (long) LONGS.getOpaque(page, i);
                }
            }
        }

        /** Called by the owner when it stops using this stripe; its counts are then final. */
        void abandon() {
            abandoned = true;
        }

        private boolean finished() {
            if (abandoned) {
                return true;
            }
            Thread thread = owner.get();
            // Thread termination happens-before isAlive() returning false (JLS 17.4.4).
            return thread == null || !thread.isAlive();
        }
    }

    /** Registers a stripe for the calling thread (once per thread and runtime: not hot). */
    synchronized Stripe register(Thread thread) {
        Stripe stripe = new Stripe(methodCount, thread);
        stripes.add(stripe);
        return stripe;
    }

    /** Counts since the previous drain. */
    record Delta(long[] counts, long total, long dropped) {}

    /** Sums all stripes and returns what was counted since the previous call. */
    synchronized Delta drain() {
        long[] totals = new long[methodCount + 1];
        for (int i = stripes.size() - 1; i >= 0; i--) {
            Stripe stripe = stripes.get(i);
            boolean finished = stripe.finished();
            if (finished) {
                // Fold: its counts are final, so they move to retired and the total stays equal.
                stripe.addTo(retired);
                stripes.remove(i);
            } else {
                stripe.addTo(totals);
            }
        }
        // Retired counts (including folds just made) join the live ones.
        for (int slot = 0; slot <= methodCount; slot++) {
            totals[slot] += retired[slot];
        }
        long[] delta = new long[methodCount];
        long total = 0;
        for (int slot = 0; slot < methodCount; slot++) {
            delta[slot] = totals[slot] - drained[slot];
            total += delta[slot];
        }
        long dropped = totals[methodCount] - drained[methodCount];
        System.arraycopy(totals, 0, drained, 0, totals.length);
        return new Delta(delta, total, dropped);
    }

    synchronized int liveStripes() {
        return stripes.size();
    }
}
