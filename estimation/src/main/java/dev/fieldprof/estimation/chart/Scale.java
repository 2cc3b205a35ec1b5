package dev.fieldprof.estimation.chart;

import java.util.ArrayList;
import java.util.List;

/**
 * Maps a value to its position along an axis, as a fraction of the axis: 0 at {@code lo}, 1 at
 * {@code hi}, linearly or logarithmically. Values outside the range are clamped to its ends, so a
 * bar or point never leaves its plot.
 *
 * @param lo the value at the axis' start; > 0 on a log scale
 * @param hi the value at the axis' end; > lo
 * @param log whether the scale is logarithmic
 */
public record Scale(double lo, double hi, boolean log) {

    public Scale {
        if (!(hi > lo) || (log && !(lo > 0))) {
            throw new IllegalArgumentException(
                    "need lo < hi (and lo > 0 on a log scale), got " + lo + ", " + hi);
        }
    }

    /** The linear scale from {@code lo} to {@code hi}. */
    public static Scale linear(double lo, double hi) {
        return new Scale(lo, hi, false);
    }

    /** The log scale from {@code lo} to {@code hi}, both > 0. */
    public static Scale log(double lo, double hi) {
        return new Scale(lo, hi, true);
    }

    /**
     * The log scale from the decade at or below {@code min} to the decade at or above {@code max},
     * spanning at least one decade.
     */
    public static Scale logDecades(double min, double max) {
        double lo = Math.pow(10, Math.floor(Math.log10(min)));
        return log(lo, Math.pow(10, Math.ceil(Math.log10(Math.max(max, lo * 10)))));
    }

    /** Where {@code value} lies, in [0, 1]; NaN for NaN. */
    public double fraction(double value) {
        double f;
        if (log) {
            f = value <= 0 ? 0 : Math.log(value / lo) / Math.log(hi / lo);
        } else {
            f = (value - lo) / (hi - lo);
        }
        return Math.max(0, Math.min(1, f));
    }

    /** The powers of ten within the range (ends included): the ticks of a log scale. */
    public List<Double> decades() {
        List<Double> ticks = new ArrayList<>();
        long first = (long) Math.ceil(Math.log10(lo) - 1e-9);
        long last = (long) Math.floor(Math.log10(hi) + 1e-9);
        for (long e = first; e <= last; e++) {
            ticks.add(Math.pow(10, e));
        }
        return ticks;
    }

    /** {@code steps} + 1 evenly spaced values from {@code lo} to {@code hi}; steps >= 1. */
    public List<Double> steps(int steps) {
        List<Double> ticks = new ArrayList<>();
        for (int i = 0; i <= steps; i++) {
            ticks.add(lo + (hi - lo) * i / steps);
        }
        return ticks;
    }
}
