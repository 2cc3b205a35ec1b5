package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * The adaptive method model that a call-site context escapes to (path format version 3): counts of
 * the methods called so far in the report in a Fenwick tree, so a callee new to its call site but
 * already called elsewhere costs about log2(calls / its calls) bits, and a method new to the report
 * an escape and a uniform id. Restarts with every report. Encoder and decoder run this same code.
 * Not thread-safe.
 */
final class MethodModel {
    // Fixed constants: they are part of path format version 3.
    static final int INC = 24;
    static final int NEW_COUNT = 24;
    static final int ESCAPE_INC = 8;
    static final int BOUND = 1 << 15;

    private final int n;
    private final int[] count;
    private final int[] tree;
    private final int top;
    private int[] seen = new int[16];
    private int seenCount;
    private int sum;
    private int escape;

    MethodModel(int methodCount) {
        this.n = methodCount;
        this.count = new int[methodCount];
        this.tree = new int[methodCount + 1];
        this.top = methodCount == 0 ? 0 : Integer.highestOneBit(methodCount);
        reset();
    }

    void reset() {
        for (int i = 0; i < seenCount; i++) {
            count[seen[i]] = 0;
        }
        seenCount = 0;
        Arrays.fill(tree, 0);
        sum = 0;
        escape = 1;
    }

    void encode(RangeEncoder enc, int callee) {
        int total = sum + escape;
        int c = count[callee];
        if (c > 0) {
            enc.encode(prefix(callee), c, total);
            add(callee, INC);
        } else {
            enc.encode(sum, escape, total);
            enc.encodeUniform(callee, n);
            admit(callee);
        }
        if (sum + escape > BOUND) {
            halve();
        }
    }

    /** The callee, or -1 if the data names a method that cannot come here (corrupt report). */
    int decode(RangeDecoder dec) {
        int total = sum + escape;
        int target = dec.target(total);
        int callee;
        if (target >= sum) {
            dec.consume(sum, escape, total);
            callee = dec.decodeUniform(n);
            if (callee < 0 || callee >= n || count[callee] > 0) {
                return -1;
            }
            admit(callee);
        } else {
            int pos = 0;
            int rest = target;
            for (int step = top; step > 0; step >>>= 1) {
                int next = pos + step;
                if (next <= n && tree[next] <= rest) {
                    pos = next;
                    rest -= tree[next];
                }
            }
            callee = pos;
            dec.consume(target - rest, count[callee], total);
            add(callee, INC);
        }
        if (sum + escape > BOUND) {
            halve();
        }
        return callee;
    }

    /** Folds the model's state into {@code h} (a report's end check). */
    int digest(int h) {
        h = PathFormat.mix(h, sum);
        return PathFormat.mix(h, escape);
    }

    private void admit(int callee) {
        if (seenCount == seen.length) {
            seen = Arrays.copyOf(seen, seenCount * 2);
        }
        seen[seenCount++] = callee;
        escape += ESCAPE_INC;
        add(callee, NEW_COUNT);
    }

    private int prefix(int index) {
        int s = 0;
        for (int i = index; i > 0; i -= i & -i) {
            s += tree[i];
        }
        return s;
    }

    private void add(int index, int delta) {
        count[index] += delta;
        sum += delta;
        for (int i = index + 1; i <= n; i += i & -i) {
            tree[i] += delta;
        }
    }

    private void halve() {
        Arrays.fill(tree, 0);
        sum = 0;
        for (int i = 0; i < seenCount; i++) {
            int m = seen[i];
            int c = (count[m] + 1) >>> 1;
            count[m] = 0;
            add(m, c);
        }
        escape = (escape + 1) >>> 1;
    }
}
