package dev.fieldprof.paths;

/**
 * One thread's path coder as a device's tracer drives it: probe events in, self-contained path
 * reports out. {@link CallSitePathEncoder} writes the current format (version 3), the {@code
 * PathEncoder} test fixture version 1; {@link PathDecoder} reads both. Per thread, not thread-safe;
 * the probe methods never throw.
 */
public interface PathReportEncoder {
    /** A method was entered. */
    void enterMethod(int methodId);

    /** The current method's branch node {@code blockId} takes out-edge {@code edgeIndex}. */
    void branch(int blockId, int edgeIndex);

    /** The method returns normally. */
    void exitMethod(int methodId);

    /** The method is left by an exception. */
    void exitExceptionally(int methodId);

    /** Ends the current report and starts the next one; open frames carry over. */
    byte[] finishReport();

    /** Switches to {@code next} from the next report on. */
    void useModel(EdgeModel next);

    /** The model the current report is coded with. */
    EdgeModel model();

    /** In debug mode, every accepted event is also appended to {@code recording} (or null). */
    void record(PathRecording recording);

    /** Frames open now (not counting the outermost pseudo-frame). */
    int depth();

    /** Events coded in the current report. */
    long eventsInReport();

    /** Coded bytes of the current report so far. */
    int codedBytesSoFar();

    /** Probe calls dropped since creation because they did not fit the branch table or frames. */
    long droppedEvents();

    /** Benchmarks only: adds every coded symbol's ideal code length to {@code meter} (or null). */
    void meter(CodeLengths meter);
}
