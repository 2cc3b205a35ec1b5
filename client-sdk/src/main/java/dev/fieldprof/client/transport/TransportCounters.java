package dev.fieldprof.client.transport;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * A snapshot of a transport's counters: reports sent (acknowledged by the broker or written to the
 * file), currently spooled on disk, ever spooled, sends the broker refused for authentication
 * (wrong credentials, untrusted certificate: the reports stay spooled), and dropped by reason.
 */
public record TransportCounters(
        long submitted,
        long sent,
        long spooled,
        long spooledNow,
        long authenticationFailures,
        Map<DropReason, Long> dropped) {

    public TransportCounters {
        EnumMap<DropReason, Long> copy = new EnumMap<>(DropReason.class);
        for (DropReason reason : DropReason.values()) {
            copy.put(reason, dropped.getOrDefault(reason, 0L));
        }
        dropped = Collections.unmodifiableMap(copy);
    }

    /** The counters of several transports added up (all zero for none). */
    public static TransportCounters sum(Iterable<TransportCounters> counters) {
        long submitted = 0;
        long sent = 0;
        long spooled = 0;
        long spooledNow = 0;
        long authenticationFailures = 0;
        Map<DropReason, Long> dropped = new EnumMap<>(DropReason.class);
        for (TransportCounters c : counters) {
            submitted += c.submitted;
            sent += c.sent;
            spooled += c.spooled;
            spooledNow += c.spooledNow;
            authenticationFailures += c.authenticationFailures;
            c.dropped.forEach((reason, n) -> dropped.merge(reason, n, Long::sum));
        }
        return new TransportCounters(
                submitted, sent, spooled, spooledNow, authenticationFailures, dropped);
    }

    public long dropped(DropReason reason) {
        return dropped.get(reason);
    }

    public long droppedTotal() {
        long total = 0;
        for (long d : dropped.values()) {
            total += d;
        }
        return total;
    }

    @Override
    public String toString() {
        return "submitted="
                + submitted
                + " sent="
                + sent
                + " spooled="
                + spooled
                + " spooledNow="
                + spooledNow
                + " authenticationFailures="
                + authenticationFailures
                + " dropped="
                + dropped;
    }
}
