package dev.fieldprof.jobs.frequency.validation;

import java.util.TreeMap;

/**
 * The event times of the reports that wait for their program model in one operator instance, and
 * the watermark they allow out: never at or past the earliest of them, so that a report released
 * when its model arrives is still on time for its window downstream.
 */
final class WatermarkHold {
    private final TreeMap<Long, Integer> waiting = new TreeMap<>();

    /** A report stamped {@code timestamp} starts waiting. */
    void add(long timestamp) {
        waiting.merge(timestamp, 1, Integer::sum);
    }

    /** A report stamped {@code timestamp} stopped waiting (released or expired). */
    void remove(long timestamp) {
        waiting.computeIfPresent(timestamp, (t, n) -> n == 1 ? null : n - 1);
    }

    /** Reports waiting. */
    int size() {
        return waiting.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The watermark allowed out when {@code inputWatermark} came in. */
    long allowed(long inputWatermark) {
        return waiting.isEmpty()
                ? inputWatermark
                : Math.min(inputWatermark, waiting.firstKey() - 1);
    }
}
