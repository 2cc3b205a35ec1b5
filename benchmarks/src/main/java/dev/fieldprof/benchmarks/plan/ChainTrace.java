package dev.fieldprof.benchmarks.plan;

import java.util.Arrays;

/**
 * One site's full, well-nested trace of method entries and exits, as recorded with probes in every
 * method: event {@code m >= 0} enters method {@code m}, event {@code ~m} (negative) leaves it.
 * Every exit matches the innermost open entry, and the trace ends with no open frame.
 */
public final class ChainTrace {
    private final int[] events;

    private ChainTrace(int[] events) {
        this.events = events;
    }

    /**
     * @param events entries ({@code m}) and exits ({@code ~m}); must be well nested
     */
    public static ChainTrace of(int... events) {
        int[] stack = new int[events.length];
        int depth = 0;
        for (int t = 0; t < events.length; t++) {
            int e = events[t];
            if (e >= 0) {
                stack[depth++] = e;
            } else if (depth == 0 || stack[--depth] != ~e) {
                throw new IllegalArgumentException(
                        "exit of method "
                                + ~e
                                + " at "
                                + t
                                + " does"
                                + " not match the innermost open entry");
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException(depth + " frames left open");
        }
        return new ChainTrace(events.clone());
    }

    static ChainTrace wrap(int[] wellNested) {
        return new ChainTrace(wellNested);
    }

    public int length() {
        return events.length;
    }

    public int event(int t) {
        return events[t];
    }

    int[] view() {
        return events;
    }

    /** Entries of the trace. */
    public long entries() {
        return Arrays.stream(events).filter(e -> e >= 0).count();
    }
}
