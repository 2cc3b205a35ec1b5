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
     * The offsets a partition held: {@code [logStartOffset, endOffset)}.
     *
     * @param logStartOffset the first offset still stored (asked before the end offset)
     * @param endOffset the offset the next appended record gets (the high watermark)
     */
    public record Extent(long logStartOffset, long endOffset) {}
}
