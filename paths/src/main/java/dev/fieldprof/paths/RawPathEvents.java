package dev.fieldprof.paths;

/**
 * The raw form of path events that a traced thread appends to its buffer before any coding: one
 * {@code int} per event, its kind in the low two bits and its value (a method id or a local edge)
 * above them. {@link CallSitePathEncoder#codeRaw} codes a run of them in one loop. The encodings
 * are plain shifts so a probe writes them with one store.
 *
 * <pre>
 * enter m            m &lt;&lt; 2 | 0
 * branch local edge  g &lt;&lt; 2 | 1      (g = -1: no such edge; dropped when coded)
 * exit m             m &lt;&lt; 2 | 2
 * exceptional exit   m &lt;&lt; 2 | 3
 * </pre>
 */
public final class RawPathEvents {
    /** Kind of an entry (low two bits). */
    public static final int ENTER = 0;

    /** Kind of a branch decision. */
    public static final int BRANCH = 1;

    /** Kind of a normal exit. */
    public static final int EXIT = 2;

    /** Kind of an exceptional exit. */
    public static final int THROW = 3;

    private RawPathEvents() {}

    /** Method {@code methodId} is entered. */
    public static int enter(int methodId) {
        return methodId << 2;
    }

    /** The top frame's method takes local edge {@code localEdge} (-1: none such). */
    public static int branch(int localEdge) {
        return localEdge << 2 | BRANCH;
    }

    /** Method {@code methodId} returns normally. */
    public static int exit(int methodId) {
        return methodId << 2 | EXIT;
    }

    /** Method {@code methodId} is left by an exception. */
    public static int exitExceptionally(int methodId) {
        return methodId << 2 | THROW;
    }

    /** The kind of a raw event. */
    public static int kind(int event) {
        return event & 3;
    }

    /** The method id or local edge of a raw event (sign kept: -1 stays -1). */
    public static int value(int event) {
        return event >> 2;
    }
}
