package dev.fieldprof.jobs.io;

import java.util.Map;

/**
 * What Kafka said about the partitions of one topic, and when it was asked.
 *
 * <p>{@code askedAtMillis} is the job's wall clock taken before the end offsets were requested, so
 * every record the broker appended before that moment has an offset below its partition's {@code
 * endOffset}; every record appended later is stamped (with LogAppendTime) no earlier than that
 * moment, less the difference between the broker's and the job's clocks.
 *
 * @param askedAtMillis the job's wall clock in epoch milliseconds, taken before the request
 * @param partitions partition number → its extent as answered
 */
public record EndOffsetObservation(long askedAtMillis, Map<Integer, Extent> partitions) {

    public EndOffsetObservation {
        partitions = Map.copyOf(partitions);
    }

    /**
     * The offsets a partition held: {@code [logStartOffset, endOffset)}, and from where on they
     * hold nothing a reader can read.
     *
     * <p>A topic written in transactions holds offsets that no record a reader sees holds: each
     * commit or abort marker takes one, and an aborted transaction's records are skipped by a
     * {@code read_committed} reader. After the last committed record of such a partition its
     * reader's next offset stays below the end offset for good; {@code nothingReadableFrom} says
     * that it has nonetheless read everything.
     *
     * @param logStartOffset the first offset still stored (asked before the end offset)
     * @param endOffset the offset the next appended record gets (the high watermark)
     * @param nothingReadableFrom no offset in {@code [nothingReadableFrom, endOffset)} holds a
     *     record a {@code read_committed} reader can read, now or later ({@link
     *     EndOffsets#checkReadable} establishes it); {@code endOffset} while nothing is established
     */
    public record Extent(long logStartOffset, long endOffset, long nothingReadableFrom) {
        public Extent {
            if (nothingReadableFrom > endOffset) {
                throw new IllegalArgumentException(
                        "nothingReadableFrom must be at most endOffset "
                                + endOffset
                                + ", was "
                                + nothingReadableFrom);
            }
        }

        /** An extent of which nothing more is known than its offsets. */
        public Extent(long logStartOffset, long endOffset) {
            this(logStartOffset, endOffset, endOffset);
        }
    }
}
