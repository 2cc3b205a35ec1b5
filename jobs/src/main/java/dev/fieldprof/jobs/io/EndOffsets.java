package dev.fieldprof.jobs.io;

import java.io.Serializable;

/**
 * The latest end offsets of a topic's partitions, as observed in the background: reading them never
 * blocks and never fails.
 */
public interface EndOffsets extends AutoCloseable {

    /** The latest observation, or null while there is none yet. */
    EndOffsetObservation latest();

    /**
     * Asks the observer to establish whether offsets {@code [from, endOffset)} of {@code partition}
     * hold a record a {@code read_committed} reader can read. It never blocks: a later observation
     * whose partition still ends at {@code endOffset} answers in {@link
     * EndOffsetObservation.Extent#nothingReadableFrom()} when they hold none. Called by a reader
     * whose next offset stays below the end offset.
     */
    default void checkReadable(int partition, long from, long endOffset) {}

    /** Stops observing for this user (the observer stops when its last user has closed). */
    @Override
    void close();

    /** Opens an {@link EndOffsets} where the job's tasks run: what a source carries to them. */
    interface Factory extends Serializable {
        EndOffsets open();
    }
}
