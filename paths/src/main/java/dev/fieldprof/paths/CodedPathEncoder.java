package dev.fieldprof.paths;

/**
 * What the path encoders share ({@link CallSitePathEncoder}, and the version-1 encoder the tests
 * keep): the model the current report is coded with and the one it switches to at the next cut, the
 * range coder, the number of open frames, the events of the current report, the calls dropped, the
 * debug recording, and how a report is finished: a 16-bit check of the state at its end coded
 * uniformly, then the header, then the coded stream. A subclass keeps its frames and writes its
 * format's header and check. Per thread, not thread-safe.
 */
abstract class CodedPathEncoder implements PathReportEncoder {
    EdgeModel model;
    private EdgeModel pendingModel;
    final BranchLayout layout;
    final RangeEncoder coder = new RangeEncoder(256);
    int depth;
    long events;
    long dropped;
    PathRecording recording;

    CodedPathEncoder(EdgeModel model) {
        this.model = model;
        this.layout = model.layout;
    }

    /**
     * Switches to {@code next} from the next report on (devices switch only between reports).
     *
     * @throws IllegalArgumentException if {@code next} is for other branch nodes
     */
    @Override
    public final void useModel(EdgeModel next) {
        if (!next.layout.sameAs(layout)) {
            throw new IllegalArgumentException(
                    "model " + next.version() + " is for other branch nodes than the encoder's");
        }
        pendingModel = next;
    }

    /** The model the current report is coded with. */
    @Override
    public final EdgeModel model() {
        return model;
    }

    /** In debug mode, every accepted event is also appended to {@code recording} (or null). */
    @Override
    public final void record(PathRecording recording) {
        this.recording = recording;
    }

    /** Frames open now (not counting the outermost pseudo-frame). */
    @Override
    public final int depth() {
        return depth;
    }

    /** Events coded in the current report. */
    @Override
    public final long eventsInReport() {
        return events;
    }

    /** Coded bytes of the current report so far (the header and a few bytes still held aside). */
    @Override
    public final int codedBytesSoFar() {
        return coder.length();
    }

    /** Probe calls dropped since creation because they did not fit the table or the frames. */
    @Override
    public final long droppedEvents() {
        return dropped;
    }

    /**
     * Ends the current report and starts the next one (with the model passed to {@link #useModel},
     * if any); open frames carry over into the next report's header.
     *
     * @return the report bytes (the subclass's format)
     */
    @Override
    public final byte[] finishReport() {
        if (coder.meter != null) {
            coder.meter.category = CodeLengths.CALL;
        }
        coder.encodeUniform(endCheck(), 1 << 16);
        int codedLength = coder.finish();
        byte[] out = new byte[headerSize() + codedLength];
        int p = writeHeader(out);
        System.arraycopy(coder.buffer(), 0, out, p, codedLength);
        if (pendingModel != null) {
            model = pendingModel;
            pendingModel = null;
            modelChanged();
        }
        beginReport();
        return out;
    }

    /** The report's end check: a hash of the open frames and of the adaptive state now. */
    abstract int endCheck();

    /** Bytes of the report's header (the format version byte included). */
    abstract int headerSize();

    /** Writes the header at the start of {@code out}; returns the index after it. */
    abstract int writeHeader(byte[] out);

    /** Rebuilds what is derived from {@link #model}, which has just changed. */
    abstract void modelChanged();

    /** Starts a report: its adaptive state restarts, its header takes the open frames. */
    abstract void beginReport();
}
