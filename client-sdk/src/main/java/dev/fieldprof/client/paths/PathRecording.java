package dev.fieldprof.client.paths;

import java.util.Arrays;

/**
 * A raw, uncoded list of path events: what a device records beside the coded stream in debug mode
 * ({@link PathEncoder#record}) and what tests compare decoded reports with. Four ints per event;
 * not thread-safe.
 *
 * <pre>{@code
 * PathRecording raw = new PathRecording();
 * encoder.record(raw); // debug mode on the device
 * PathRecording decoded = new PathRecording();
 * new PathDecoder(model).decode(encoder.finishReport(), decoded);
 * boolean exact = raw.firstDifference(decoded) < 0;
 * }</pre>
 */
public final class PathRecording implements PathEventSink {
    public static final int ENTER = 0;
    public static final int BRANCH = 1;
    public static final int EXIT = 2;
    public static final int THROW = 3;

    private int[] data = new int[64];
    private int size;

    @Override
    public void enter(int methodId) {
        add(ENTER, methodId, -1, -1);
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex) {
        add(BRANCH, methodId, blockId, edgeIndex);
    }

    @Override
    public void exit(int methodId, boolean exceptional) {
        add(exceptional ? THROW : EXIT, methodId, -1, -1);
    }

    private void add(int kind, int m, int block, int edge) {
        if (4 * size + 4 > data.length) {
            data = Arrays.copyOf(data, data.length * 2);
        }
        int p = 4 * size++;
        data[p] = kind;
        data[p + 1] = m;
        data[p + 2] = block;
        data[p + 3] = edge;
    }

    /** Number of events. */
    public int size() {
        return size;
    }

    /** {@link #ENTER}, {@link #BRANCH}, {@link #EXIT} or {@link #THROW}. */
    public int kind(int i) {
        return data[4 * check(i)];
    }

    public int methodId(int i) {
        return data[4 * check(i) + 1];
    }

    /** Block id of a branch event, -1 otherwise. */
    public int blockId(int i) {
        return data[4 * check(i) + 2];
    }

    /** Out-edge index of a branch event, -1 otherwise. */
    public int edgeIndex(int i) {
        return data[4 * check(i) + 3];
    }

    private int check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("event " + i + " of " + size);
        }
        return i;
    }

    /** Plays every event into {@code sink}, in order. */
    public void replay(PathEventSink sink) {
        for (int i = 0; i < size; i++) {
            int p = 4 * i;
            switch (data[p]) {
                case ENTER -> sink.enter(data[p + 1]);
                case BRANCH -> sink.branch(data[p + 1], data[p + 2], data[p + 3]);
                default -> sink.exit(data[p + 1], data[p] == THROW);
            }
        }
    }

    public void clear() {
        size = 0;
    }

    /** Index of the first event that differs from {@code other}'s, or -1 if both are equal. */
    public int firstDifference(PathRecording other) {
        int n = Math.min(size, other.size);
        for (int i = 0; i < n; i++) {
            if (!Arrays.equals(data, 4 * i, 4 * i + 4, other.data, 4 * i, 4 * i + 4)) {
                return i;
            }
        }
        return size == other.size ? -1 : n;
    }

    /** A readable form of event {@code i}, for failure messages. */
    public String describe(int i) {
        if (i < 0 || i >= size) {
            return "(none)";
        }
        return switch (kind(i)) {
            case ENTER -> "enter " + methodId(i);
            case BRANCH -> "branch " + methodId(i) + ":" + blockId(i) + "->" + edgeIndex(i);
            case EXIT -> "exit " + methodId(i);
            default -> "throw " + methodId(i);
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PathRecording r && firstDifference(r) < 0;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int i = 0; i < 4 * size; i++) {
            h = 31 * h + data[i];
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("PathRecording[" + size + "]{");
        for (int i = 0; i < Math.min(size, 20); i++) {
            sb.append(i == 0 ? "" : ", ").append(describe(i));
        }
        return sb.append(size > 20 ? ", ...}" : "}").toString();
    }
}
