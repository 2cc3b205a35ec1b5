package dev.fieldprof.client.transport;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/** The live counters behind {@link TransportCounters}; thread-safe. */
public final class TransportStats {
    private final AtomicLong submitted = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong spooled = new AtomicLong();
    private final AtomicLong spooledNow = new AtomicLong();
    private final AtomicLong authenticationFailures = new AtomicLong();
    private final AtomicLongArray dropped = new AtomicLongArray(DropReason.values().length);

    public void submitted() {
        submitted.incrementAndGet();
    }

    public void sent() {
        sent.incrementAndGet();
    }

    public void spooled() {
        spooled.incrementAndGet();
    }

    public void spooledNow(long count) {
        spooledNow.set(count);
    }

    /** The broker refused the credentials or the TLS handshake (the report stays spooled). */
    public void authenticationFailed() {
        authenticationFailures.incrementAndGet();
    }

    public void dropped(DropReason reason) {
        dropped.incrementAndGet(reason.ordinal());
    }

    public TransportCounters snapshot() {
        Map<DropReason, Long> byReason = new EnumMap<>(DropReason.class);
        for (DropReason reason : DropReason.values()) {
            byReason.put(reason, dropped.get(reason.ordinal()));
        }
        return new TransportCounters(
                submitted.get(),
                sent.get(),
                spooled.get(),
                spooledNow.get(),
                authenticationFailures.get(),
                byReason);
    }
}
