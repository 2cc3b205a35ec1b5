package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * A raw, uncoded list of path events: what a device records beside the coded stream in debug mode
 * ({@code PathEncoder.record}, a test fixture) and what tests compare decoded reports with. Four
 * ints per event; not thread-safe.
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

    /** Version byte of {@link #toBytes()}. */
    static final int BYTES_VERSION = 1;

    /**
     * The events in a plain binary form, for a debug-mode report's raw field: a version byte (1),
     * then per event unsigned LEB128 varints: kind (0 enter, 1 branch, 2 exit, 3 exceptional exit),
     * method id, and for a branch block id and edge index.
     */
    public byte[] toBytes() {
        int n = 1;
        for (int i = 0; i < size; i++) {
            int p = 4 * i;
            n += 1 + PathFormat.varLongSize(data[p + 1]);
            if (data[p] == BRANCH) {
                n += PathFormat.varLongSize(data[p + 2]) + PathFormat.varLongSize(data[p + 3]);
            }
        }
        byte[] out = new byte[n];
        out[0] = BYTES_VERSION;
        int pos = 1;
        for (int i = 0; i < size; i++) {
            int p = 4 * i;
            pos = PathFormat.putVarLong(out, pos, data[p]);
            pos = PathFormat.putVarLong(out, pos, data[p + 1]);
            if (data[p] == BRANCH) {
                pos = PathFormat.putVarLong(out, pos, data[p + 2]);
                pos = PathFormat.putVarLong(out, pos, data[p + 3]);
            }
        }
        return out;
    }

    /**
     * Reads {@link #toBytes()} output.
     *
     * @throws IllegalArgumentException if the bytes are not a recording of a known version
     */
    public static PathRecording fromBytes(byte[] bytes) {
        if (bytes.length == 0 || bytes[0] != BYTES_VERSION) {
            throw new IllegalArgumentException("not a path recording of version " + BYTES_VERSION);
        }
        PathRecording r = new PathRecording();
        PathFormat.Reader in = new PathFormat.Reader(bytes, 1);
        try {
            while (in.pos < bytes.length) {
                int kind = in.varInt("kind", 4);
                int m = in.varInt("method id", Integer.MAX_VALUE);
                if (kind == BRANCH) {
                    r.add(
                            kind,
                            m,
                            in.varInt("block id", Integer.MAX_VALUE),
                            in.varInt("edge index", Integer.MAX_VALUE));
                } else {
                    r.add(kind, m, -1, -1);
                }
            }
        } catch (InvalidPathReportException e) {
            throw new IllegalArgumentException("malformed path recording: " + e.getMessage(), e);
        }
        return r;
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
