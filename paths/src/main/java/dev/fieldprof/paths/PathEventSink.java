package dev.fieldprof.paths;

/**
 * Receives a thread's path events in execution order: what {@link PathDecoder} reproduces and what
 * {@link PathRecording} and {@link EdgeCounter} consume.
 */
public interface PathEventSink {

    /**
     * A decoded report begins, with the frames its header names still open (outermost first). Sinks
     * that follow the frame stack (such as {@link EdgeCounter}) restart from them.
     */
    default void begin(PathReportHeader header) {}

    /** A method was entered (called from the enclosing frame, or outermost). */
    void enter(int methodId);

    /** The branch node {@code blockId} of the current method took out-edge {@code edgeIndex}. */
    void branch(int methodId, int blockId, int edgeIndex);

    /** The current method returned normally, or was left by an exception. */
    void exit(int methodId, boolean exceptional);
}
