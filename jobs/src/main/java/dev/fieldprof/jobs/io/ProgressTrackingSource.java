package dev.fieldprof.jobs.io;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A Kafka source that tells its subtask's {@link ReadProgress} which partitions it reads from
 * where, and observes their end offsets while its reader is open. Otherwise exactly the Kafka
 * source it wraps: the same splits, split and enumerator state, and serializers.
 */
public final class ProgressTrackingSource
        implements Source<RawRecord, KafkaPartitionSplit, KafkaSourceEnumState>,
                ResultTypeQueryable<RawRecord> {
    private static final long serialVersionUID = 1L;

    private final KafkaSource<RawRecord> kafka;
    private final ReadProgress progress;

    public ProgressTrackingSource(KafkaSource<RawRecord> kafka, ReadProgress progress) {
        this.kafka = kafka;
        this.progress = progress;
    }

    /** The progress its subtasks' watermark generators must share (see {@link EventTime}). */
    public ReadProgress progress() {
        return progress;
    }

    @Override
    public Boundedness getBoundedness() {
        return kafka.getBoundedness();
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) {
        return kafka.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaSourceEnumState checkpoint)
            throws Exception {
        return kafka.restoreEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return kafka.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
        return kafka.getEnumeratorCheckpointSerializer();
    }

    @Override
    public SourceReader<RawRecord, KafkaPartitionSplit> createReader(SourceReaderContext context)
            throws Exception {
        SourceReader<RawRecord, KafkaPartitionSplit> reader = kafka.createReader(context);
        progress.readerOpened(context.currentParallelism());
        return new Reader(reader, progress);
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return kafka.getProducedType();
    }

    /** The Kafka reader, telling the progress its splits and stopping it when it closes. */
    private static final class Reader implements SourceReader<RawRecord, KafkaPartitionSplit> {
        private final SourceReader<RawRecord, KafkaPartitionSplit> kafka;
        private final ReadProgress progress;

        Reader(SourceReader<RawRecord, KafkaPartitionSplit> kafka, ReadProgress progress) {
            this.kafka = kafka;
            this.progress = progress;
        }

        @Override
        public void start() {
            kafka.start();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<RawRecord> output) throws Exception {
            return kafka.pollNext(output);
        }

        @Override
        public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
            return kafka.snapshotState(checkpointId);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return kafka.isAvailable();
        }

        @Override
        public void addSplits(List<KafkaPartitionSplit> splits) {
            progress.splitsAdded(splits);
            kafka.addSplits(splits);
        }

        @Override
        public void notifyNoMoreSplits() {
            kafka.notifyNoMoreSplits();
        }

        @Override
        public void handleSourceEvents(SourceEvent event) {
            kafka.handleSourceEvents(event);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            kafka.notifyCheckpointComplete(checkpointId);
        }

        @Override
        public void notifyCheckpointAborted(long checkpointId) throws Exception {
            kafka.notifyCheckpointAborted(checkpointId);
        }

        @Override
        public void pauseOrResumeSplits(
                Collection<String> splitsToPause, Collection<String> splitsToResume) {
            kafka.pauseOrResumeSplits(splitsToPause, splitsToResume);
        }

        @Override
        public void close() throws Exception {
            try {
                kafka.close();
            } finally {
                progress.readerClosed();
            }
        }
    }
}
