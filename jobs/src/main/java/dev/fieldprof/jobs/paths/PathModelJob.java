package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.Checkpoints;
import dev.fieldprof.jobs.io.DeadLetterMetrics;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.EventTime;
import dev.fieldprof.jobs.io.KafkaConnectionCheck;
import dev.fieldprof.jobs.io.KafkaRecords;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.jobs.io.ResolvedStartingOffsets;
import dev.fieldprof.jobs.io.StateBackends;
import dev.fieldprof.jobs.io.TopicSettings;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ParameterTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Learns edge-probability models from devices' path reports (docs/architecture.md, "Paths"; the
 * server side of AdapTracer, docs/references.md): raw records of {@code fieldprof.reports.paths} →
 * decode and check each PathReport → per app version tumbling windows (event time by default, 1
 * min) → decode every report with the model version it names and count edges → EdgeModel version
 * M+1 on the compacted {@code fieldprof.models.edges}, keyed by app version, exactly once. Every
 * record it cannot use becomes a DeadLetter with the reason.
 *
 * <p>The branch nodes of each app version come from the CFGs of its program model, broadcast from
 * the compacted {@code fieldprof.programs} ({@link DecodeProgramBranches}); {@code --branches
 * app:1=branches.txt} (the description the path instrumenter writes into the jar) overrides them.
 * Event time is the reports' Kafka record time: the programs stream only holds the watermark back
 * at the start, until its partitions have been read to the end offsets Kafka reported, and never
 * moves it ({@link dev.fieldprof.jobs.io.SideInputWatermarks}), so a model published late cannot
 * close the windows of reports in flight; a window whose app version has no branch table yet when
 * it closes waits for it (at most {@code --table-wait} of wall-clock time, or until the input ends)
 * before its reports become dead letters.
 *
 * <p>Reports are decoded and counted as they arrive, in parallel per (app version, shard of device
 * ids) ({@link CountPathEdges}): state holds each open window's edge counts, not its reports. The
 * shards' counts are merged per app version when the window closes ({@link LearnEdgeModels}). The
 * models the shards decode with come from the model topic itself, as they come to devices; each
 * model names its writer (the transactional-id prefix), so two jobs publishing for one app version
 * never make a report decode with the wrong model.
 *
 * <p>Options of {@link #main}: each is declared once, with its default and meaning, in {@link
 * PathJobOptions}; {@code --help} lists them, and docs/jobs.md has the same list.
 */
public final class PathModelJob {
    /** The job's name in Flink. */
    public static final String NAME = PathDeadLetters.JOB;

    private static final Logger LOG = LoggerFactory.getLogger(PathModelJob.class);

    private final PathJobOptions options;
    private final Source<RawRecord, ?, ?> reports;
    private final Source<RawRecord, ?, ?> programs;
    private final Source<RawRecord, ?, ?> modelFeed;
    private final Sink<EncodedRecord> models;
    private final Sink<EncodedRecord> deadLetters;
    private final Map<String, byte[]> published;

    /**
     * @param reports raw records of the path reports topic
     * @param programs raw records of the program models topic
     * @param modelFeed raw records of the model topic, read from its start: the models devices may
     *     code with, this job's own included once they are committed
     * @param models receives encoded EdgeModel records keyed by app version
     * @param deadLetters receives encoded DeadLetter records keyed like the rejected record
     */
    public PathModelJob(
            PathJobOptions options,
            Source<RawRecord, ?, ?> reports,
            Source<RawRecord, ?, ?> programs,
            Source<RawRecord, ?, ?> modelFeed,
            Sink<EncodedRecord> models,
            Sink<EncodedRecord> deadLetters) {
        this(options, reports, programs, modelFeed, models, deadLetters, Map.of());
    }

    /**
     * As above, continuing from models already published.
     *
     * @param published app version → record bytes of its newest published EdgeModel (see {@link
     *     PublishedModels}): the base of the first new version where the job has no state yet and
     *     the model feed has not delivered it
     */
    public PathModelJob(
            PathJobOptions options,
            Source<RawRecord, ?, ?> reports,
            Source<RawRecord, ?, ?> programs,
            Source<RawRecord, ?, ?> modelFeed,
            Sink<EncodedRecord> models,
            Sink<EncodedRecord> deadLetters,
            Map<String, byte[]> published) {
        this.options = options;
        this.reports = reports;
        this.programs = programs;
        this.modelFeed = modelFeed;
        this.models = models;
        this.deadLetters = deadLetters;
        this.published = Map.copyOf(published);
    }

    /**
     * The production job: Kafka sources and exactly-once Kafka sinks named by the options; it
     * continues from the newest models on the model topic.
     */
    public static PathModelJob onKafka(PathJobOptions options) {
        Properties client = options.kafkaClient();
        Source<RawRecord, ?, ?> source =
                KafkaRecords.trackedSource(
                        client,
                        options.reportsTopic(),
                        options.groupId(),
                        ResolvedStartingOffsets.From.COMMITTED,
                        options.idleness());
        // Programs and models: always the whole compacted topic.
        Source<RawRecord, ?, ?> programs =
                KafkaRecords.trackedSource(
                        client,
                        options.programsTopic(),
                        options.groupId() + "-programs",
                        ResolvedStartingOffsets.From.EARLIEST,
                        options.idleness());
        KafkaSource<RawRecord> modelFeed =
                KafkaRecords.source(
                        client,
                        options.modelsTopic(),
                        options.groupId() + "-models",
                        OffsetsInitializer.earliest());
        return new PathModelJob(
                options,
                source,
                programs,
                modelFeed,
                KafkaRecords.sink(options, options.modelsTopic(), "models", Topics.MAX_MODEL_BYTES),
                KafkaRecords.sink(
                        options,
                        options.deadLetterTopic(),
                        "dead-letters",
                        Topics.MAX_RESULT_BYTES),
                PublishedModels.read(client, options.modelsTopic(), Duration.ofSeconds(30)));
    }

    public PathJobOptions options() {
        return options;
    }

    /** Adds the pipeline to {@code env} without executing it. */
    public void buildInto(StreamExecutionEnvironment env) {
        env.getConfig().setGlobalJobParameters(ParameterTool.fromMap(options.toMap()));
        Checkpoints.configure(env, options, NAME);
        StateBackends.configure(env, options.stateBackend());
        WatermarkStrategy<RawRecord> recordTime =
                EventTime.ofReports(reports, options.outOfOrderness());
        WatermarkStrategy<RawRecord> sideInputTime = EventTime.ofSideInput(programs);
        SingleOutputStreamOperator<PathSideInput> branches =
                env.fromSource(programs, sideInputTime, "path-programs-source")
                        .uid("path-programs-source")
                        .process(new DecodeProgramBranches())
                        .name("decode-program-branches")
                        .uid("decode-program-branches");
        SingleOutputStreamOperator<PathSideInput> publishedModels =
                env.fromSource(modelFeed, EventTime.ofReferenceData(), "path-models-source")
                        .uid("path-models-source")
                        .process(new DecodeEdgeModels())
                        .name("decode-edge-models")
                        .uid("decode-edge-models");
        BroadcastStream<PathSideInput> reference =
                branches.union(publishedModels)
                        .broadcast(
                                PathReferenceData.BRANCHES,
                                PathReferenceData.PLANS,
                                PathReferenceData.MODELS);
        SingleOutputStreamOperator<PathReportEnvelope> decoded =
                env.fromSource(reports, recordTime, "path-reports-source")
                        .uid("path-reports-source")
                        .process(new DecodePathReports())
                        .name("decode-path-reports")
                        .uid("decode-path-reports");
        SingleOutputStreamOperator<ShardEdgeCounts> counted =
                decoded.keyBy(new AppShardKey(options.shards()))
                        .connect(reference)
                        .process(
                                new CountPathEdges(
                                        options.branches(),
                                        options.window(),
                                        options.processingTime(),
                                        options.keepVersions(),
                                        options.tableWait(),
                                        options.maxWaiting(),
                                        options.allowedLateness()))
                        .name("count-path-edges")
                        .uid("count-path-edges");
        SingleOutputStreamOperator<EncodedRecord> learned =
                counted.keyBy(new CountsAppKey())
                        .connect(reference)
                        .process(
                                new LearnEdgeModels(
                                        options.branches(),
                                        options.processingTime(),
                                        options.keepVersions(),
                                        options.targetTotal(),
                                        options.transactionalIdPrefix(),
                                        options.reportsTopic(),
                                        options.tableWait(),
                                        published))
                        .name("learn-edge-models")
                        .uid("learn-edge-models");
        learned.sinkTo(models).name("edge-models-sink").uid("edge-models-sink");
        decoded.getSideOutput(PathDeadLetters.TAG)
                .union(
                        branches.getSideOutput(PathDeadLetters.TAG),
                        publishedModels.getSideOutput(PathDeadLetters.TAG),
                        counted.getSideOutput(PathDeadLetters.TAG),
                        learned.getSideOutput(PathDeadLetters.TAG))
                .map(new DeadLetterMetrics())
                .name("path-dead-letter-metrics")
                .uid("path-dead-letter-metrics")
                .sinkTo(deadLetters)
                .name("path-dead-letters-sink")
                .uid("path-dead-letters-sink");
    }

    /** Builds the pipeline into the context's environment and runs it to the end. */
    public JobExecutionResult execute() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        buildInto(env);
        return env.execute(NAME);
    }

    /** Parses the options (see {@link PathJobOptions}) and runs the job on Kafka. */
    public static void main(String[] args) throws Exception {
        if (java.util.Arrays.asList(args).contains("--help")) {
            System.out.print(
                    "Options of " + NAME + ":" + System.lineSeparator() + PathJobOptions.help());
            return;
        }
        PathJobOptions options = PathJobOptions.parse(args);
        // A refused login would otherwise surface as a job restarting in a loop.
        KafkaConnectionCheck.check(options.kafkaClient(), KafkaConnectionCheck.DEFAULT_TIMEOUT);
        // Windows run on the broker's clock only where the topic stamps append time.
        TopicSettings.reportTopicWarning(options.kafkaClient(), options.reportsTopic())
                .ifPresent(warning -> LOG.warn("{}", warning));
        onKafka(options).execute();
    }

    /** Keys reports by app version. */
    /**
     * (app version, shard): the shard is a hash of the device id, so one device's reports stay in
     * one shard and one popular app version spreads over {@code shards} keys.
     */
    static final class AppShardKey
            implements org.apache.flink.api.java.functions.KeySelector<PathReportEnvelope, String> {
        private static final long serialVersionUID = 1L;
        private final int shards;

        AppShardKey(int shards) {
            this.shards = shards;
        }

        @Override
        public String getKey(PathReportEnvelope report) {
            return report.appVersion + "\n" + Math.floorMod(report.deviceId.hashCode(), shards);
        }
    }

    /** The app version of a shard's counts. */
    static final class CountsAppKey
            implements org.apache.flink.api.java.functions.KeySelector<ShardEdgeCounts, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(ShardEdgeCounts counts) {
            return counts.appVersion;
        }
    }
}
