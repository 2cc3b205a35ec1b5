package dev.fieldprof.jobs.io;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;

/**
 * How far one source subtask has read its Kafka partitions, against what Kafka says they hold: the
 * one fact that lets event time follow the wall clock without assuming anything about timing.
 *
 * <p>A source ({@link ProgressTrackingSource}) and the watermark strategy of its records ({@link
 * EventTime}) hold the same instance. Flink serializes a source operator's source and watermark
 * strategy together, so each subtask deserializes its own copy, which its reader (splits assigned,
 * from {@link KafkaPartitionSplit#getStartingOffset()}) and its watermark generators (offsets of
 * the records they see) fill in. All of it runs on the subtask's task thread.
 *
 * <p>The subtask has <em>read to the end as of T</em> when, for an observation asked at T, every
 * partition assigned to it has no readable record left below the end offset observed then: its next
 * offset (the offset after its last record, or where its split starts) or its log start offset is
 * at least that end offset, or at least the offset from which the observer established that the
 * partition holds nothing readable below it (the commit markers of a topic written in transactions:
 * {@link EndOffsetObservation.Extent#nothingReadableFrom()}). Every record appended before T is
 * then read (or deleted, or never readable), so a record it reads later was appended after T.
 */
public final class ReadProgress implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The value of {@link #readToEndAt()} while no such moment is known. */
    public static final long UNKNOWN = Long.MIN_VALUE;

    private final EndOffsets.Factory endOffsets;

    private transient EndOffsets observed;
    private transient int parallelism;
    private transient int assignedCount;
    private transient boolean[] assigned;
    private transient long[] next;

    private ReadProgress(EndOffsets.Factory endOffsets) {
        this.endOffsets = endOffsets;
    }

    /** Progress checked against the end offsets {@code endOffsets} observes. */
    public static ReadProgress against(EndOffsets.Factory endOffsets) {
        return new ReadProgress(endOffsets);
    }

    /** For a source that is not Kafka: no moment is ever known, event time follows records only. */
    public static ReadProgress none() {
        return new ReadProgress(null);
    }

    /** The reader of this subtask opened: start observing the end offsets. */
    public void readerOpened(int parallelism) {
        this.parallelism = parallelism;
        if (endOffsets != null && observed == null) {
            observed = endOffsets.open();
        }
    }

    /** The reader closed (its task ends): stop observing. */
    public void readerClosed() {
        if (observed != null) {
            observed.close();
            observed = null;
        }
    }

    /**
     * Splits assigned to this subtask: each partition is read from its split's starting offset (a
     * restored position, or one the enumerator resolved); a marker such as "earliest" says nothing,
     * and the partition's log start offset stands in for it.
     */
    public void splitsAdded(List<KafkaPartitionSplit> splits) {
        for (KafkaPartitionSplit split : splits) {
            int partition = split.getPartition();
            ensureCapacity(partition);
            if (!assigned[partition]) {
                assigned[partition] = true;
                assignedCount++;
            }
            long start = split.getStartingOffset();
            next[partition] = start >= 0 ? start : UNKNOWN;
        }
    }

    /** A record at {@code offset} of {@code partition} was read. */
    public void consumed(int partition, long offset) {
        if (partition < 0) {
            return;
        }
        ensureCapacity(partition);
        if (offset + 1 > next[partition]) {
            next[partition] = offset + 1;
        }
    }

    /**
     * The time T of the latest observation as of which this subtask has read every partition
     * assigned to it to the end, or {@link #UNKNOWN}: no observation yet, no partition assigned
     * yet, or some partition still held a readable record it has not read.
     */
    public long readToEndAt() {
        EndOffsetObservation seen = observed == null ? null : observed.latest();
        if (seen == null || assignedCount == 0) {
            return UNKNOWN;
        }
        boolean behind = false;
        for (int partition = 0; partition < assigned.length; partition++) {
            if (!assigned[partition]) {
                continue;
            }
            EndOffsetObservation.Extent extent = seen.partitions().get(partition);
            if (extent == null) {
                return UNKNOWN;
            }
            long readFrom = Math.max(next[partition], extent.logStartOffset());
            if (readFrom < extent.nothingReadableFrom()) {
                // Perhaps only markers are left: the observer checks, and a later observation says
                // so. Asking for every partition before answering keeps one round for all of them.
                observed.checkReadable(partition, readFrom, extent.endOffset());
                behind = true;
            }
        }
        return behind ? UNKNOWN : seen.askedAtMillis();
    }

    /**
     * Whether this subtask holds no partition and will get none: the topic, as last observed, has
     * fewer partitions than the source has subtasks, so some subtasks legitimately have none. With
     * at least as many partitions as subtasks every subtask gets one, and a subtask without one is
     * still waiting for its assignment.
     */
    public boolean holdsNoPartition() {
        EndOffsetObservation seen = observed == null ? null : observed.latest();
        return assignedCount == 0 && seen != null && seen.partitions().size() < parallelism;
    }

    private void ensureCapacity(int partition) {
        if (assigned == null) {
            assigned = new boolean[partition + 1];
            next = new long[partition + 1];
            Arrays.fill(next, UNKNOWN);
        } else if (partition >= assigned.length) {
            int oldLength = assigned.length;
            int length = Math.max(partition + 1, oldLength * 2);
            assigned = Arrays.copyOf(assigned, length);
            next = Arrays.copyOf(next, length);
            Arrays.fill(next, oldLength, length, UNKNOWN);
        }
    }
}
