package dev.fieldprof.jobs.frequency;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.functions.BundleReports;
import dev.fieldprof.jobs.frequency.functions.DecodePrograms;
import dev.fieldprof.jobs.frequency.functions.DecodeReports;
import dev.fieldprof.jobs.frequency.functions.DeduplicateReplays;
import dev.fieldprof.jobs.frequency.functions.DeduplicateReports;
import dev.fieldprof.jobs.frequency.functions.EmitShardSum;
import dev.fieldprof.jobs.frequency.functions.EmitWindowSum;
import dev.fieldprof.jobs.frequency.functions.EstimateWindows;
import dev.fieldprof.jobs.frequency.functions.Keys;
import dev.fieldprof.jobs.frequency.functions.LateBundleToDeadLetters;
import dev.fieldprof.jobs.frequency.functions.LateReportToDeadLetter;
import dev.fieldprof.jobs.frequency.functions.LateShardSumToDeadLetter;
import dev.fieldprof.jobs.frequency.functions.MergeShardSums;
import dev.fieldprof.jobs.frequency.functions.OpenShuffledBatches;
import dev.fieldprof.jobs.frequency.functions.RevisingTrigger;
import dev.fieldprof.jobs.frequency.functions.SumBundles;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.ReportBundle;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import dev.fieldprof.jobs.frequency.validation.CopyProgramToShards;
import dev.fieldprof.jobs.frequency.validation.ValidateReports;
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
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.SealingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.util.OutputTag;
import org.apache.flink.util.ParameterTool;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns randomized frequency reports into windowed, unbiased, constraint-consistent estimates
 * (docs/architecture.md, "The privacy contract", "The constraint projection, fast", "Topics and
 * records").
 *
 * <p>Pipeline: raw report records → decode → deduplicate (by device sequence number, or by report
 * id for unnumbered reports) → validate against the program model of their app version, read from
 * the compacted programs topic (reports that precede their model wait, bounded) → per (app version,
 * config, shard) tumbling event-time windows summed incrementally, from bundles of the reports that
 * arrived since the last checkpoint ({@link BundleReports}) → the shards merged per (app version,
 * config, window) → one estimate and one constraint projection per window, plus the cumulative
 * estimate since the start → EstimateWindow records keyed by (app version, config, generation,
 * window). Every record the job cannot use becomes a DeadLetter.
 *
 * <p>Event time is the Kafka record timestamp of the reports: the broker's append time on report
 * topics created by fieldprof (the job warns at start when its topic keeps the producers' clocks).
 * Once the source has read its partitions past the end offsets Kafka reported at a time T, its
 * watermark follows T instead of turning idle, so every window closes, a backlog the job has not
 * fetched yet is never taken for quiet, and no stage closes a window before an earlier stage has
 * emitted its sum ({@link dev.fieldprof.jobs.io.ReportWatermarks}). Program models never take part
 * in it (their source is idle from the start, {@link EventTime#ofReferenceData()}), so a model
 * stamped after its reports cannot close their windows. Instead, validation holds the watermark
 * below every report that waits for its model ({@link ValidateReports}): a report counts in its own
 * window whether its model was published before or after it, at the price of windows closing up to
 * {@code --hold-limit} later while a report waits.
 *
 * <p>Late reports still count: a window's state is kept until the watermark passes its end plus
 * {@code --allowed-lateness}, a report that arrives after its window was estimated is added to it,
 * and the window is estimated and published again as its next revision, under the same Kafka key
 * (the estimates topic is a compacted changelog). Only a report beyond the allowed lateness is a
 * LATE dead letter.
 *
 * <p>The shuffled mode: given the analyst's private keyset ({@code --analyst-keyset}), the job also
 * reads the shuffler's batches (read_committed, so a batch is read once its transaction committed,
 * never twice), opens each sealed report ({@link OpenShuffledBatches}) and sends it down the same
 * path as a report of the reports topic: deduplicated by its report id, validated (which holds a
 * batch to its configuration's minimum size, and turns away a shuffled configuration's report that
 * came straight to the reports topic), summed in the window of the batch's release time and
 * estimated, its estimates stating the central (ε, δ) of their smallest batch.
 *
 * <p>Options of {@link #main}: each is declared once, with its default and meaning, in {@link
 * FrequencyJobOptions}; {@code --help} lists them, and docs/jobs.md has the same list.
 */
public final class FrequencyEstimationJob {
    private static final Logger LOG = LoggerFactory.getLogger(FrequencyEstimationJob.class);

    /** The job's name in Flink. */
    public static final String NAME = DeadLetters.JOB;

    private static final OutputTag<ReportRecord> LATE =
            new OutputTag<>("late-reports") {
                private static final long serialVersionUID = 1L;
            };

    private static final OutputTag<ReportBundle> LATE_BUNDLES =
            new OutputTag<>("late-bundles") {
                private static final long serialVersionUID = 1L;
            };

    private static final OutputTag<WindowSum> LATE_SHARD_SUMS =
            new OutputTag<>("late-shard-sums") {
                private static final long serialVersionUID = 1L;
            };

    private final FrequencyJobOptions options;
    private final Source<RawRecord, ?, ?> reports;
    private final Source<RawRecord, ?, ?> replays;
    private final Source<RawRecord, ?, ?> programs;
    private final Source<RawRecord, ?, ?> shuffled;
    private final String analystKeysetJson;
    private final Sink<EncodedRecord> estimates;
    private final Sink<EncodedRecord> deadLetters;

    /**
     * A job over the given sources and sinks (Kafka in production, bounded sources and collecting
     * sinks in tests).
     *
     * @param reports raw records of the reports topic
     * @param programs raw records of the programs topic
     * @param estimates receives encoded EstimateWindow records keyed by {@code EstimateKeys}
     * @param deadLetters receives encoded DeadLetter records keyed like the rejected record
     */
    public FrequencyEstimationJob(
            FrequencyJobOptions options,
            Source<RawRecord, ?, ?> reports,
            Source<RawRecord, ?, ?> programs,
            Sink<EncodedRecord> estimates,
            Sink<EncodedRecord> deadLetters) {
        this(options, reports, null, programs, estimates, deadLetters);
    }

    /**
     * A job that also reads replayed reports.
     *
     * @param replays raw records of the replay topic, or null for a job without replays
     */
    public FrequencyEstimationJob(
            FrequencyJobOptions options,
            Source<RawRecord, ?, ?> reports,
            Source<RawRecord, ?, ?> replays,
            Source<RawRecord, ?, ?> programs,
            Sink<EncodedRecord> estimates,
            Sink<EncodedRecord> deadLetters) {
        this(options, reports, replays, programs, null, null, estimates, deadLetters);
    }

    /**
     * A job that also reads the shuffler's batches (the shuffled mode).
     *
     * @param shuffled raw records of the shuffled reports topic (ShuffledBatch), or null for a job
     *     without the shuffled mode
     * @param analystKeysetJson the analyst's private keyset (Tink JSON) that opens them; required
     *     with {@code shuffled}
     * @throws IllegalArgumentException when {@code shuffled} is given without a keyset that reads
     */
    public FrequencyEstimationJob(
            FrequencyJobOptions options,
            Source<RawRecord, ?, ?> reports,
            Source<RawRecord, ?, ?> replays,
            Source<RawRecord, ?, ?> programs,
            Source<RawRecord, ?, ?> shuffled,
            String analystKeysetJson,
            Sink<EncodedRecord> estimates,
            Sink<EncodedRecord> deadLetters) {
        if (shuffled != null) {
            checkKeyset(analystKeysetJson, "the analyst keyset");
        }
        this.options = options;
        this.reports = reports;
        this.replays = replays;
        this.programs = programs;
        this.shuffled = shuffled;
        this.analystKeysetJson = analystKeysetJson;
        this.estimates = estimates;
        this.deadLetters = deadLetters;
    }

    /** The production job: Kafka sources and exactly-once Kafka sinks named by the options. */
    public static FrequencyEstimationJob onKafka(FrequencyJobOptions options) {
        String keyset = analystKeyset(options);
        return new FrequencyEstimationJob(
                options,
                reportSource(options),
                replaySource(options),
                // Programs: always the whole compacted topic.
                KafkaRecords.source(
                        options.kafkaClient(),
                        options.programsTopic(),
                        options.groupId() + "-programs",
                        OffsetsInitializer.earliest()),
                keyset == null ? null : shuffledSource(options),
                keyset,
                KafkaRecords.sink(
                        options, options.estimatesTopic(), "estimates", Topics.MAX_ESTIMATE_BYTES),
                KafkaRecords.sink(
                        options,
                        options.deadLetterTopic(),
                        "dead-letters",
                        Topics.MAX_RESULT_BYTES));
    }

    public FrequencyJobOptions options() {
        return options;
    }

    /**
     * Adds the job's pipeline to {@code env} (with its checkpointing and global parameters) without
     * executing it, so that a caller can run it with {@code env.executeAsync(NAME)}.
     */
    public void buildInto(StreamExecutionEnvironment env) {
        env.getConfig().setGlobalJobParameters(ParameterTool.fromMap(options.toMap()));
        // Chained operators hand records on instead of copying each one through its serializer
        // (a report's raw bytes and ids, an estimate's tens of MB at a million methods). Safe
        // here: no function of this job changes or keeps a record it has emitted, and one that
        // keeps its input (a report waiting for its model) receives it from the network, which
        // deserializes a fresh object per record.
        env.getConfig().enableObjectReuse();
        StateBackends.configure(env, options.stateBackend());
        Checkpoints.configure(env, options, NAME);
        SingleOutputStreamOperator<ProgramUpdate> models =
                env.fromSource(programs, EventTime.ofReferenceData(), "program-models-source")
                        .uid("program-models-source")
                        .process(new DecodePrograms())
                        .name("decode-program-models")
                        .uid("decode-program-models");
        BroadcastStream<ProgramUpdate> modelBroadcast = models.broadcast(EstimateWindows.PROGRAMS);
        DataStream<ProgramUpdate> modelCopies =
                models.flatMap(new CopyProgramToShards(options.shards()))
                        .name("copy-program-models-to-shards")
                        .uid("copy-program-models-to-shards");

        WatermarkStrategy<RawRecord> reportTime =
                EventTime.ofReports(reports, options.outOfOrderness());
        SingleOutputStreamOperator<ReportRecord> decoded =
                env.fromSource(reports, reportTime, "frequency-reports-source")
                        .uid("frequency-reports-source")
                        .process(new DecodeReports())
                        .name("decode-reports")
                        .uid("decode-reports");
        DataStream<ReportRecord> arriving = decoded;
        List<DataStream<EncodedRecord>> shuffledDeadLetters = new ArrayList<>();
        if (shuffled != null) {
            // Its own event time, like the reports': the release time of each batch.
            SingleOutputStreamOperator<ReportRecord> opened =
                    env.fromSource(
                                    shuffled,
                                    EventTime.ofReports(shuffled, options.outOfOrderness()),
                                    "shuffled-reports-source")
                            .uid("shuffled-reports-source")
                            .process(new OpenShuffledBatches(analystKeysetJson))
                            .name("open-shuffled-batches")
                            .uid("open-shuffled-batches");
            shuffledDeadLetters.add(opened.getSideOutput(DeadLetters.TAG));
            arriving = decoded.union(opened);
        }
        SingleOutputStreamOperator<ReportRecord> unique =
                arriving.keyBy(new Keys.Sender())
                        .process(new DeduplicateReports(options.dedupTtl()))
                        .name("deduplicate-reports")
                        .uid("deduplicate-reports");
        DataStream<ReportRecord> counted = unique;
        List<DataStream<EncodedRecord>> replayDeadLetters = new ArrayList<>();
        if (replays != null) {
            // Replayed reports never take part in event time (their record times are old on
            // purpose): each is judged by the reports' watermark, so one within the allowed
            // lateness revises its original window, and an idle or empty replay topic holds
            // nothing back.
            SingleOutputStreamOperator<RawRecord> firstReplays =
                    env.fromSource(replays, EventTime.ofReferenceData(), "frequency-replays-source")
                            .uid("frequency-replays-source")
                            .keyBy(DeduplicateReplays.KEY)
                            .process(
                                    new DeduplicateReplays(
                                            options.allowedLateness()
                                                    .plus(DeduplicateReports.DEFAULT_DEVICE_TTL)))
                            .name("deduplicate-replays")
                            .uid("deduplicate-replays");
            SingleOutputStreamOperator<ReportRecord> decodedReplays =
                    firstReplays
                            .process(new DecodeReports())
                            .name("decode-replays")
                            .uid("decode-replays");
            replayDeadLetters.add(firstReplays.getSideOutput(DeadLetters.TAG));
            replayDeadLetters.add(decodedReplays.getSideOutput(DeadLetters.TAG));
            counted = unique.union(decodedReplays);
        }
        SingleOutputStreamOperator<ReportRecord> valid =
                counted.keyBy(new Keys.AppShard(options.shards()))
                        .connect(modelCopies.keyBy(new Keys.ProgramShard()))
                        .transform(
                                "validate-reports",
                                TypeInformation.of(ReportRecord.class),
                                new ValidateReports(
                                        options.modelWait(),
                                        options.holdLimit(),
                                        options.maxPending()))
                        .uid("validate-reports");
        SingleOutputStreamOperator<ReportBundle> bundles =
                valid.transform(
                                "bundle-reports",
                                TypeInformation.of(ReportBundle.class),
                                new BundleReports(
                                        options.window(),
                                        options.allowedLateness(),
                                        options.shards(),
                                        BundleReports.DEFAULT_MAX_CELLS,
                                        LATE))
                        .uid("bundle-reports");
        SingleOutputStreamOperator<WindowSum> shardSums =
                // Keyed like validation, whose output is already partitioned so: the bundles
                // reach their window sum without crossing the network again.
                DataStreamUtils.reinterpretAsKeyedStream(
                                bundles,
                                new Keys.BundleShard(),
                                Types.TUPLE(Types.STRING, Types.INT))
                        .window(TumblingEventTimeWindows.of(options.window()))
                        .allowedLateness(options.allowedLateness())
                        .trigger(new RevisingTrigger(options.allowedLateness().toMillis()))
                        .sideOutputLateData(LATE_BUNDLES)
                        .aggregate(new SumBundles(), new EmitShardSum())
                        .name("frequency-window-sum")
                        .uid("frequency-window-sum");
        SingleOutputStreamOperator<WindowSum> windowSums =
                shardSums
                        .keyBy(new Keys.AppConfig())
                        .window(TumblingEventTimeWindows.of(options.window()))
                        // A shard's late sum is sent before the watermark that would end its
                        // window's lateness here too, so the same lateness accepts it.
                        .allowedLateness(options.allowedLateness())
                        .trigger(new RevisingTrigger(options.allowedLateness().toMillis()))
                        .sideOutputLateData(LATE_SHARD_SUMS)
                        .aggregate(new MergeShardSums(), new EmitWindowSum())
                        .name("frequency-window-merge")
                        .uid("frequency-window-merge");
        SingleOutputStreamOperator<EncodedRecord> estimated =
                windowSums
                        .keyBy(new Keys.AppConfig())
                        .connect(modelBroadcast)
                        .process(
                                new EstimateWindows(
                                        options.reportsTopic(),
                                        options.hotThreshold(),
                                        options.top()))
                        .name("estimate-windows")
                        .uid("estimate-windows");
        estimated.sinkTo(estimates).name("estimates-sink").uid("estimates-sink");

        DataStream<EncodedRecord> late =
                bundles.getSideOutput(LATE)
                        .map(new LateReportToDeadLetter())
                        .name("late-reports")
                        .uid("late-reports");
        DataStream<EncodedRecord> lateBundles =
                shardSums
                        .getSideOutput(LATE_BUNDLES)
                        .flatMap(
                                new LateBundleToDeadLetters(
                                        options.reportsTopic(), options.window().toMillis()))
                        .name("late-bundles")
                        .uid("late-bundles");
        DataStream<EncodedRecord> lateShardSums =
                windowSums
                        .getSideOutput(LATE_SHARD_SUMS)
                        .map(new LateShardSumToDeadLetter(options.reportsTopic()))
                        .name("late-shard-sums")
                        .uid("late-shard-sums");
        decoded.getSideOutput(DeadLetters.TAG)
                .union(
                        models.getSideOutput(DeadLetters.TAG),
                        unique.getSideOutput(DeadLetters.TAG),
                        valid.getSideOutput(DeadLetters.TAG),
                        late,
                        lateBundles,
                        lateShardSums,
                        estimated.getSideOutput(DeadLetters.TAG))
                .union(replayDeadLetters.toArray(DataStream[]::new))
                .union(shuffledDeadLetters.toArray(DataStream[]::new))
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
        if (java.util.Arrays.asList(args).contains("--help")) {
            System.out.print(
                    "Options of "
                            + NAME
                            + ":"
                            + System.lineSeparator()
                            + FrequencyJobOptions.help());
            return;
        }
        FrequencyJobOptions options = FrequencyJobOptions.parse(args);
        // A refused login would otherwise surface as a job restarting in a loop.
        KafkaConnectionCheck.check(options.kafkaClient(), KafkaConnectionCheck.DEFAULT_TIMEOUT);
        TopicSettings.reportTopicWarning(options.kafkaClient(), options.reportsTopic())
                .ifPresent(warning -> LOG.warn("{}", warning));
        onKafka(options).execute();
    }

    /**
     * The replay topic, subscribed by pattern: a job started before the topic exists reads it once
     * partition discovery finds it, instead of failing. Starts where the reports start.
     */
    private static Source<RawRecord, ?, ?> replaySource(FrequencyJobOptions options) {
        OffsetsInitializer offsets =
                switch (options.startingOffsets()) {
                    case "earliest" -> OffsetsInitializer.earliest();
                    case "latest" -> OffsetsInitializer.latest();
                    default -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
                };
        return KafkaRecords.patternSource(
                options.kafkaClient(),
                Pattern.compile(Pattern.quote(options.replayTopic())),
                options.groupId() + "-replays",
                offsets);
    }

    /**
     * The analyst's private keyset named by {@code --analyst-keyset}, checked to read, or null when
     * the option is not given.
     *
     * @throws IllegalArgumentException naming the option when the file cannot be read or holds no
     *     private keyset
     */
    static String analystKeyset(FrequencyJobOptions options) {
        if (options.analystKeyset().isEmpty()) {
            return null;
        }
        String option = "--" + FrequencyJobOptions.ANALYST_KEYSET.key();
        String json;
        try {
            json = Files.readString(Path.of(options.analystKeyset()), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    option + ": cannot read " + options.analystKeyset() + ": " + e, e);
        }
        checkKeyset(json, option + " " + options.analystKeyset());
        return json;
    }

    private static void checkKeyset(String json, String what) {
        if (json == null) {
            throw new IllegalArgumentException(what + ": no private keyset given");
        }
        try {
            AnalystKeys.fromPrivateKeysetJson(json);
        } catch (SealingException | RuntimeException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
    }

    /** The shuffler's batches: where the reports start, in a consumer group of their own. */
    private static Source<RawRecord, ?, ?> shuffledSource(FrequencyJobOptions options) {
        ResolvedStartingOffsets.From from =
                switch (options.startingOffsets()) {
                    case "earliest" -> ResolvedStartingOffsets.From.EARLIEST;
                    case "latest" -> ResolvedStartingOffsets.From.LATEST;
                    default -> ResolvedStartingOffsets.From.COMMITTED;
                };
        return KafkaRecords.trackedSource(
                options.kafkaClient(),
                options.shuffledTopic(),
                options.groupId() + "-shuffled",
                from,
                options.idleness());
    }

    private static Source<RawRecord, ?, ?> reportSource(FrequencyJobOptions options) {
        // As the options say (a restore from a checkpoint uses the checkpointed offsets instead).
        ResolvedStartingOffsets.From from =
                switch (options.startingOffsets()) {
                    case "earliest" -> ResolvedStartingOffsets.From.EARLIEST;
                    case "latest" -> ResolvedStartingOffsets.From.LATEST;
                    default -> ResolvedStartingOffsets.From.COMMITTED;
                };
        return KafkaRecords.trackedSource(
                options.kafkaClient(),
                options.reportsTopic(),
                options.groupId(),
                from,
                options.idleness());
    }
}
