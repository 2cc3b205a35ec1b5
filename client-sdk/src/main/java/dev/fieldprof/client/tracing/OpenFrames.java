package dev.fieldprof.client.tracing;

import dev.fieldprof.paths.RawPathEvents;
import java.util.Arrays;

/**
 * The methods a traced thread has open, outermost first, as its raw events ({@link RawPathEvents})
 * leave them: an entry opens a frame; an exit closes the frame of its method and those above it
 * (their exit probes were skipped by an exception), and an exit of a method that has no open frame
 * changes nothing, as the encoder codes them. The staged tracer keeps it per thread at its
 * segments' starts, brought forward over a segment's events in one loop when the segment is handed
 * over, so that the probes themselves keep no stack; a dropped segment's next report starts from
 * it.
 *
 * <p>Owned by one thread; grows (never shrinks) at a deeper stack than any before.
 */
final class OpenFrames {
    private int[] methods = new int[64];
    private int depth;

    /** Applies the entries and exits among {@code raw[from..to)}; branches change nothing. */
    void apply(int[] raw, int from, int to) {
        int[] s = methods;
        int d = depth;
        for (int i = from; i < to; i++) {
            int e = raw[i];
            int kind = RawPathEvents.kind(e);
            if (kind == RawPathEvents.BRANCH) {
                continue;
            }
            int m = RawPathEvents.value(e);
            if (kind == RawPathEvents.ENTER) {
                if (d == s.length) {
                    s = Arrays.copyOf(s, 2 * d);
                    methods = s;
                }
                s[d++] = m;
            } else {
                int k = d - 1;
                while (k >= 0 && s[k] != m) {
                    k--;
                }
                if (k >= 0) {
                    d = k;
                }
            }
        }
        depth = d;
    }

    /** Frames open, the outermost at index 0; valid up to {@link #depth()}, owner only. */
    int[] methods() {
        return methods;
    }

    int depth() {
        return depth;
    }
}
