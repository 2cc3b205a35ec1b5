package dev.fieldprof.benchmarks.client;

import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.RandomSource;

/**
 * The first randomizer of frequency profiling (docs/references.md, section 4.1), kept only as a
 * baseline: for each of the k events of the trace, every v ∈ V is incremented independently, with
 * probability p if it is the observed event and 1 − p otherwise. O(k·|V|) Bernoulli trials per
 * report; same distribution as the exact O(|V|) randomizer.
 */
public final class NaivePerEventRandomizer {
    private final PrivacyParameters parameters;
    private final RandomSource random;

    public NaivePerEventRandomizer(PrivacyParameters parameters, RandomSource random) {
        this.parameters = parameters;
        this.random = random;
    }

    /** Randomizes a trace given by its histogram (the order of events does not matter). */
    public int[] randomize(int[] frequencies) {
        // A Bernoulli(x) trial is one 64-bit draw compared with x·2^64 (unsigned).
        long keep = threshold(parameters.p());
        long flip = threshold(1 - parameters.p());
        int[] out = new int[frequencies.length];
        for (int observed = 0; observed < frequencies.length; observed++) {
            for (int event = 0; event < frequencies[observed]; event++) {
                for (int v = 0; v < out.length; v++) {
                    long bits = random.nextLong();
                    if (Long.compareUnsigned(bits, v == observed ? keep : flip) < 0) {
                        out[v]++;
                    }
                }
            }
        }
        return out;
    }

    private static long threshold(double probability) {
        // probability·2^64 as an unsigned long
        double scaled = probability * 0x1.0p64;
        return scaled >= 0x1.0p63 ? (long) (scaled - 0x1.0p63) ^ Long.MIN_VALUE : (long) scaled;
    }
}
