package dev.fieldprof.monitor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EdgeModel;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import dev.fieldprof.schemas.Topics;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Feeds the monitor page: follows the estimates (bounded look-back), dead-letter, edge-model and
 * program topics into a {@link MonitorHistory}, pushes its state to a {@link MonitorServer} after
 * each poll that brought something, and serves the JSON endpoints {@code /api/state.json?pin=},
 * {@code /api/compare.json?first=&second=}. One thread calls {@link #pollOnce} or {@link #run};
 * broker outages are ridden out by the followers (they reconnect).
 */
public final class MonitorFeed implements AutoCloseable {
    /** Which topics to follow. */
    public record TopicNames(
            String estimates, String deadLetters, String edgeModels, String programs) {
        public static TopicNames defaults() {
            return new TopicNames(
                    Topics.ESTIMATES, Topics.DEAD_LETTERS, Topics.EDGE_MODELS, Topics.PROGRAMS);
        }
    }

    private static final ObjectMapper JSON =
            JsonMapper.builder().enable(JsonWriteFeature.WRITE_NAN_AS_STRINGS).build();

    private final MonitorHistory history;
    private final MonitorServer server;
    private final String appFilter;
    private final TopicFollower estimates;
    private final TopicFollower deadLetters;
    private final TopicFollower edgeModels;
    private final TopicFollower programs;
    private final RecordCodec<EstimateWindow> estimateCodec = RecordCodec.of(EstimateWindow.class);
    private final RecordCodec<DeadLetter> letterCodec = RecordCodec.of(DeadLetter.class);
    private final RecordCodec<EdgeModel> edgeCodec = RecordCodec.of(EdgeModel.class);
    private final RecordCodec<ProgramModel> programCodec = RecordCodec.of(ProgramModel.class);
    private final AtomicLong undecodable = new AtomicLong();
    private long published = -1;

    /**
     * @param client Kafka client properties, with at least the bootstrap servers
     * @param lookBack how far back to fill the history at start (estimates and dead letters)
     * @param appFilter show only this {@code app:version}, or null for all
     */
    public MonitorFeed(
            Properties client,
            TopicNames topics,
            Duration lookBack,
            String appFilter,
            MonitorHistory history,
            MonitorServer server) {
        this.history = history;
        this.server = server;
        this.appFilter = appFilter;
        this.estimates = new TopicFollower(client, topics.estimates(), lookBack);
        this.deadLetters = new TopicFollower(client, topics.deadLetters(), lookBack);
        this.edgeModels = new TopicFollower(client, topics.edgeModels(), null);
        this.programs = new TopicFollower(client, topics.programs(), null);
        server.route("state.json", query -> json(history.state(query.get("pin"))));
        server.route("compare.json", this::compare);
        server.publish(json(history.state(null)));
    }

    /** Polls every topic once (about {@code timeout} in all) and pushes a changed state. */
    public void pollOnce(Duration timeout) {
        Duration each = timeout.dividedBy(4);
        estimates.poll(each, this::estimate);
        deadLetters.poll(each, this::deadLetter);
        edgeModels.poll(each, this::edgeModel);
        programs.poll(each, this::program);
        long version = history.version();
        if (version != published) {
            published = version;
            server.publish(json(history.state(null)));
        }
    }

    /** Polls until {@code stop} is set. */
    public void run(java.util.function.BooleanSupplier stop) {
        while (!stop.getAsBoolean()) {
            pollOnce(Duration.ofMillis(400));
        }
    }

    /** Why the estimates topic cannot be read now, or null when it can. */
    public String estimatesError() {
        return estimates.lastError();
    }

    /** Why each followed topic cannot be read now (null where it can), estimates first. */
    public List<String> errors() {
        return java.util.Arrays.asList(
                estimates.lastError(),
                deadLetters.lastError(),
                edgeModels.lastError(),
                programs.lastError());
    }

    /** Records on the followed topics that no schema version here could read. */
    public long undecodable() {
        return undecodable.get();
    }

    private void estimate(ConsumerRecord<byte[], byte[]> record) {
        try {
            EstimateWindow e = estimateCodec.decode(record.value());
            if (appFilter == null || appFilter.equals(e.getAppVersion())) {
                history.acceptEstimate(e, record.timestamp());
            }
        } catch (RecordDecodingException e) {
            undecodable.incrementAndGet();
        }
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> record) {
        try {
            DeadLetter letter = letterCodec.decode(record.value());
            history.acceptDeadLetter(
                    letter.getReasonCode(), letter.getDetectedAtMillis().toEpochMilli());
        } catch (RecordDecodingException e) {
            history.acceptDeadLetter(DeadLetterReason.OTHER, record.timestamp());
        }
    }

    private void edgeModel(ConsumerRecord<byte[], byte[]> record) {
        try {
            EdgeModel model = edgeCodec.decode(record.value());
            history.acceptEdgeModel(model.getAppVersion(), model.getVersion(), record.timestamp());
        } catch (RecordDecodingException e) {
            undecodable.incrementAndGet();
        }
    }

    private void program(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return; // a tombstone of the compacted topic
        }
        try {
            ProgramModel model = programCodec.decode(record.value());
            List<String> signatures = new ArrayList<>(model.getMethods().size());
            for (MethodInfo method : model.getMethods()) {
                signatures.add(method.getSignature());
            }
            history.acceptSignatures(model.getAppVersion(), signatures);
        } catch (RecordDecodingException e) {
            undecodable.incrementAndGet();
        }
    }

    private String compare(Map<String, String> query) {
        EstimateWindow first = cumulative(query.get("first"));
        EstimateWindow second = cumulative(query.get("second"));
        return json(
                ReleaseComparison.of(
                        first,
                        history.signatures(first.getAppVersion()),
                        second,
                        history.signatures(second.getAppVersion()),
                        0.05,
                        25));
    }

    /** The cumulative estimate of a stream named {@code app:version [config]}. */
    private EstimateWindow cumulative(String stream) {
        if (stream == null || !stream.endsWith("]") || !stream.contains(" [")) {
            throw new IllegalArgumentException("name a stream as 'app:version [config]'");
        }
        int open = stream.lastIndexOf(" [");
        EstimateWindow e =
                history.cumulative(
                        stream.substring(0, open), stream.substring(open + 2, stream.length() - 1));
        if (e == null) {
            throw new IllegalArgumentException("no cumulative estimate of " + stream + " yet");
        }
        return e;
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        estimates.close();
        deadLetters.close();
        edgeModels.close();
        programs.close();
    }
}
