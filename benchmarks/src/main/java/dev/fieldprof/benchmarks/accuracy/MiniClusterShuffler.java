package dev.fieldprof.benchmarks.accuracy;

import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.jobs.shuffle.ShufflerJob;
import dev.fieldprof.jobs.shuffle.ShufflerJobOptions;
import dev.fieldprof.runtime.EmbeddedFlink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The production {@link ShufflerJob} on an embedded MiniCluster, for the comparison's shuffled
 * mode: a bounded source of the devices' sealed records, collecting sinks for the released parts
 * and the dead letters. The minimum and the maximum batch size are both n, so the job releases a
 * batch the moment it holds n distinct reports (no wall-clock look is needed) and ends with its
 * source. Records travel to and from the job through this JVM's memory (the MiniCluster runs in
 * it), not through the job graph.
 */
public final class MiniClusterShuffler implements CentralPrivacyComparison.Shuffler {
    private static final Map<String, RawRecord[]> INPUTS = new ConcurrentHashMap<>();
    private static final Map<String, Queue<EncodedRecord>> OUTPUTS = new ConcurrentHashMap<>();

    private final EmbeddedFlink flink;
    private final int parallelism;
    private int deadLetters;

    /**
     * @param flink a started cluster with at least {@code parallelism} slots; not closed here
     * @param parallelism the job's parallelism, at least 1
     */
    public MiniClusterShuffler(EmbeddedFlink flink, int parallelism) {
        if (parallelism < 1 || parallelism > flink.taskSlots()) {
            throw new IllegalArgumentException(
                    "parallelism must be in [1, " + flink.taskSlots() + "], got " + parallelism);
        }
        this.flink = flink;
        this.parallelism = parallelism;
    }

    /** Dead letters of the last run (a record the job could not forward). */
    public int deadLetters() {
        return deadLetters;
    }

    @Override
    public List<EncodedRecord> shuffle(List<RawRecord> sealed, int batchSize) throws Exception {
        String id = UUID.randomUUID().toString();
        INPUTS.put(id, sealed.toArray(new RawRecord[0]));
        OUTPUTS.put(id + "/shuffled", new ConcurrentLinkedQueue<>());
        OUTPUTS.put(id + "/dead-letters", new ConcurrentLinkedQueue<>());
        try {
            ShufflerJobOptions options =
                    ShufflerJobOptions.fromMap(
                            Map.of(
                                    ShufflerJobOptions.BOOTSTRAP.key(),
                                    "unused:9092",
                                    ShufflerJobOptions.MIN_BATCH_SIZE.key(),
                                    Integer.toString(batchSize),
                                    ShufflerJobOptions.MAX_BATCH_SIZE.key(),
                                    Integer.toString(batchSize),
                                    ShufflerJobOptions.CHECKPOINT_INTERVAL.key(),
                                    "0 s",
                                    ShufflerJobOptions.STATE_BACKEND.key(),
                                    "hashmap"));
            StreamExecutionEnvironment env = flink.environment();
            env.setParallelism(parallelism);
            new ShufflerJob(
                            options,
                            new DataGeneratorSource<>(
                                    new Lookup(id),
                                    sealed.size(),
                                    TypeInformation.of(RawRecord.class)),
                            new Collecting(id + "/shuffled"),
                            new Collecting(id + "/dead-letters"))
                    .buildInto(env);
            env.execute(ShufflerJob.NAME);
            deadLetters = OUTPUTS.get(id + "/dead-letters").size();
            return new ArrayList<>(OUTPUTS.get(id + "/shuffled"));
        } finally {
            INPUTS.remove(id);
            OUTPUTS.remove(id + "/shuffled");
            OUTPUTS.remove(id + "/dead-letters");
        }
    }

    /** Record i of the run's input. */
    private static final class Lookup implements GeneratorFunction<Long, RawRecord> {
        private static final long serialVersionUID = 1L;
        private final String id;

        Lookup(String id) {
            this.id = id;
        }

        @Override
        public RawRecord map(Long index) {
            return INPUTS.get(id)[Math.toIntExact(index)];
        }
    }

    /** Keeps what it receives in this JVM's queue of the run. */
    private static final class Collecting implements Sink<EncodedRecord> {
        private static final long serialVersionUID = 1L;
        private final String queue;

        Collecting(String queue) {
            this.queue = queue;
        }

        @Override
        public SinkWriter<EncodedRecord> createWriter(WriterInitContext context) {
            Queue<EncodedRecord> received = OUTPUTS.get(queue);
            return new SinkWriter<>() {
                @Override
                public void write(EncodedRecord element, Context context) {
                    received.add(element);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
