package dev.fieldprof.client.transport;

/** Why a report was dropped instead of being sent or kept in the spool. */
public enum DropReason {
    /** The bounded in-memory queue was full (the publisher could not keep up). */
    QUEUE_FULL,
    /** The spool was over its byte cap: the oldest spooled report was discarded. */
    SPOOL_FULL,
    /** Writing to disk failed (disk full, permissions, I/O error). */
    WRITE_FAILED,
    /** The report could not be encoded. */
    ENCODE_FAILED,
    /** The broker rejected the report permanently (e.g. too large, not authorized). */
    REJECTED,
    /** Submitted after close. */
    CLOSED,
    /**
     * A report of a shuffled configuration that could not be sealed to the analyst's public key
     * (none given, unreadable, or not a public keyset): it is never sent unsealed.
     */
    UNSEALABLE
}
