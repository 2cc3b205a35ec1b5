package dev.fieldprof.jobs.io;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a fresh start reads each partition from, as offsets the enumerator asks Kafka for when it
 * assigns the partition, never as a marker ("earliest", "latest", "committed") that the reader
 * resolves later: a source subtask then knows where it reads from before its first record, and a
 * partition with nothing new to read counts as read to its end (see {@link ReadProgress}).
 */
public final class ResolvedStartingOffsets implements OffsetsInitializer {
    private static final long serialVersionUID = 1L;

    /** Where to start. */
    public enum From {
        /** The group's committed offset, the log start where there is none. */
        COMMITTED,
        /** The log start. */
        EARLIEST,
        /** The end offset when the partition is assigned. */
        LATEST
    }

    private final From from;

    public ResolvedStartingOffsets(From from) {
        this.from = from;
    }

    @Override
    public Map<TopicPartition, Long> getPartitionOffsets(
            Collection<TopicPartition> partitions, PartitionOffsetsRetriever offsets) {
        Map<TopicPartition, Long> resolved = new HashMap<>();
        switch (from) {
            case LATEST -> resolved.putAll(offsets.endOffsets(partitions));
            case EARLIEST -> resolved.putAll(offsets.beginningOffsets(partitions));
            case COMMITTED -> {
                Map<TopicPartition, Long> beginnings = offsets.beginningOffsets(partitions);
                Map<TopicPartition, Long> committed = offsets.committedOffsets(partitions);
                for (TopicPartition partition : partitions) {
                    Long offset = committed.get(partition);
                    // No commit (or a negative one): from the start. A commit below the log start
                    // is reset to it by the reader (the reset strategy below).
                    resolved.put(
                            partition,
                            offset != null && offset >= 0 ? offset : beginnings.get(partition));
                }
            }
        }
        return resolved;
    }

    @Override
    public OffsetResetStrategy getAutoOffsetResetStrategy() {
        return from == From.LATEST ? OffsetResetStrategy.LATEST : OffsetResetStrategy.EARLIEST;
    }
}
