package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.jobs.io.Checkpoints;
import dev.fieldprof.jobs.io.DeadLetterMetrics;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.KafkaConnectionCheck;
import dev.fieldprof.jobs.io.KafkaRecords;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.jobs.io.StateBackends;
import dev.fieldprof.schemas.Topics;
import java.util.Arrays;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ParameterTool;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * The shuffler of the shuffled mode: turns the devices' sealed reports into shuffled batches the
 * analyst can open but not link to a device (docs/threat-model.md). Meant to run under another
 * operator's account than the analyst's jobs, with its own Kafka principal.
 *
 * <p>Pipeline: raw records of the input topic → decode SealedReports, never opening a payload
 * ({@link DecodeSealedReports}) → forward each (device id, app version, sequence) once ({@link
 * DeduplicateSealedReports}) → hold them per (app version, config) and release a batch when at
 * least {@code --min-batch-size} are held, or dead-letter them after {@code --max-wait} ({@link
 * BatchSealedReports}) → ShuffledBatch parts, stamped with the release time, to the shuffled topic.
 * Every record the job cannot forward becomes a DeadLetter with its reason.
 *
 * <p>Time is the job's wall clock only: input record times are never event time and never leave the
 * job. The shuffled topic is written by a Kafka sink in exactly-once mode (transactions committed
 * with each checkpoint), so a reader with {@code isolation.level=read_committed} sees each batch
 * once and each report in at most one batch, across failures and restarts. Without checkpoints
 * ({@code --checkpoint-interval 0}) the output is at-least-once and a batch may be seen twice.
 *
 * <p>Options of {@link #main}: declared once in {@link ShufflerJobOptions}; {@code --help} lists
 * them, and docs/jobs.md has the same list.
 */
public final class ShufflerJob {
    /** The job's name in Flink. */
    public static final String NAME = ShufflerDeadLetters.JOB;

    private final ShufflerJobOptions options;
    private final Source<RawRecord, ?, ?> input;
    private final Sink<EncodedRecord> shuffled;
    private final Sink<EncodedRecord> deadLetters;

    /**
     * A job over the given source and sinks (Kafka in production, other ones in tests).
     *
     * @param input raw records of the input topic
     * @param shuffled receives encoded ShuffledBatch parts keyed by batch id and part
     * @param deadLetters receives encoded DeadLetter records keyed like the rejected record
     */
    public ShufflerJob(
            ShufflerJobOptions options,
            Source<RawRecord, ?, ?> input,
            Sink<EncodedRecord> shuffled,
            Sink<EncodedRecord> deadLetters) {
        this.options = options;
        this.input = input;
        this.shuffled = shuffled;
        this.deadLetters = deadLetters;
    }

    /** The production job: a Kafka source and exactly-once Kafka sinks named by the options. */
    public static ShufflerJob onKafka(ShufflerJobOptions options) {
        OffsetsInitializer offsets =
                switch (options.startingOffsets()) {
                    case "earliest" -> OffsetsInitializer.earliest();
                    case "latest" -> OffsetsInitializer.latest();
                    default -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
                };
        return new ShufflerJob(
                options,
                KafkaRecords.source(
                        options.kafkaClient(), options.inputTopic(), options.groupId(), offsets),
                KafkaRecords.sink(
                        options, options.shuffledTopic(), "shuffled", Topics.MAX_REPORT_BYTES),
                KafkaRecords.sink(
                        options,
                        options.deadLetterTopic(),
                        "dead-letters",
                        Topics.MAX_RESULT_BYTES));
    }

    public ShufflerJobOptions options() {
        return options;
    }

    /**
     * Adds the job's pipeline to {@code env} (with its checkpointing and global parameters) without
     * executing it, so that a caller can run it with {@code env.executeAsync(NAME)}.
     */
    public void buildInto(StreamExecutionEnvironment env) {
        env.getConfig().setGlobalJobParameters(ParameterTool.fromMap(options.toMap()));
        StateBackends.configure(env, options.stateBackend());
        Checkpoints.configure(env, options, NAME);
        BatchParts parts = new BatchParts(BatchParts.MAX_PART_BYTES);
        SingleOutputStreamOperator<SealedRecord> decoded =
                env.fromSource(input, WatermarkStrategy.noWatermarks(), "sealed-reports-source")
                        .uid("sealed-reports-source")
                        .process(new DecodeSealedReports(parts))
                        .name("decode-sealed-reports")
                        .uid("decode-sealed-reports");
        SingleOutputStreamOperator<SealedRecord> unique =
                decoded.keyBy(new ShufflerKeys.Sender())
                        .process(
                                new DeduplicateSealedReports(
                                        options.inputTopic(), options.deviceTtl()))
                        .name("deduplicate-sealed-reports")
                        .uid("deduplicate-sealed-reports");
        SingleOutputStreamOperator<ReleasedPart> released =
                unique.keyBy(new ShufflerKeys.Group())
                        .process(
                                new BatchSealedReports(
                                        options.inputTopic(),
                                        options.minBatchSize(),
                                        options.maxBatchSize(),
                                        options.releaseInterval(),
                                        options.maxWait(),
                                        parts))
                        .name("batch-sealed-reports")
                        .uid("batch-sealed-reports");
        released.assignTimestampsAndWatermarks(
                        WatermarkStrategy.<ReleasedPart>noWatermarks()
                                .withTimestampAssigner(new StampReleaseTime()))
                .name("stamp-release-time")
                .uid("stamp-release-time")
                .map(new ToEncoded())
                .name("encode-shuffled-parts")
                .uid("encode-shuffled-parts")
                .sinkTo(shuffled)
                .name("shuffled-sink")
                .uid("shuffled-sink");
        decoded.getSideOutput(ShufflerDeadLetters.TAG)
                .union(
                        unique.getSideOutput(ShufflerDeadLetters.TAG),
                        released.getSideOutput(ShufflerDeadLetters.TAG))
                .map(new DeadLetterMetrics())
                .name("dead-letter-metrics")
                .uid("dead-letter-metrics")
                .sinkTo(deadLetters)
                .name("dead-letters-sink")
                .uid("dead-letters-sink");
    }

    /** Builds the pipeline into the context's environment and runs it to the end. */
    public JobExecutionResult execute() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        buildInto(env);
        return env.execute(NAME);
    }

    /**
     * Parses the options (see the class comment) and runs the job on Kafka.
     *
     * @throws IllegalArgumentException naming the option when an option is missing or bad
     */
    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help")) {
            System.out.print(
                    "Options of "
                            + NAME
                            + ":"
                            + System.lineSeparator()
                            + ShufflerJobOptions.help());
            return;
        }
        ShufflerJobOptions options = ShufflerJobOptions.parse(args);
        // A refused login would otherwise surface as a job restarting in a loop.
        KafkaConnectionCheck.check(options.kafkaClient(), KafkaConnectionCheck.DEFAULT_TIMEOUT);
        onKafka(options).execute();
    }

    /** A released part as the sink writes it; its timestamp stays the release time. */
    private static final class ToEncoded implements MapFunction<ReleasedPart, EncodedRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public EncodedRecord map(ReleasedPart part) {
            return part.toEncoded();
        }
    }
}
