package dev.fieldprof.client.tracing;

import dev.fieldprof.schemas.PathReport;

/**
 * Where a {@link PathTracer} hands finished path reports. Called on the traced thread right after a
 * report is cut, so an implementation must not block for long; it must not throw either (the tracer
 * counts and swallows what it throws, never the host).
 */
public interface PathReportSink extends AutoCloseable {
    void send(PathReport report);

    /** Flushes what was sent; the default does nothing. */
    default void flush() {}

    @Override
    default void close() {}
}
