package dev.fieldprof.jobs.testing;

import dev.fieldprof.runtime.EmbeddedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The one embedded Kafka broker and Flink MiniCluster that a jobs ITCase class shares: both start
 * before the class's first test and close after its last. The MiniCluster is Flink's own {@link
 * MiniClusterExtension}, so {@code StreamExecutionEnvironment.getExecutionEnvironment()} submits to
 * it, {@code @InjectClusterRESTAddress} parameters resolve, and a job a test leaves running is
 * cancelled after it. Each test gets topic names of its own ({@link #createTopic}); its results are
 * read {@code read_committed} until a real condition holds or to the end offsets, never after a
 * sleep.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final JobsRuntimeExtension RUNTIME = JobsRuntimeExtension.builder().taskSlots(2).build();
 *
 * @Test
 * void countsEveryReport() throws Exception {
 *     String reports = RUNTIME.createTopic("reports", 1, Topics.reportSettings());
 *     RUNTIME.produce(List.of(new ProducerRecord<>(reports, "device-1", bytes)));
 *     List<DeadLetter> letters = RUNTIME.awaitAtLeast(deadLetters, LETTERS::decode, 1);
 * }
 * }</pre>
 *
 * The integration-tests module's {@code FieldprofRuntimeExtension} is the end-to-end counterpart
 * (fieldprof's topics, a SASL_SSL listener, a Testcontainers broker); this one has only what the
 * jobs' own ITCases need.
 */
public final class JobsRuntimeExtension
        implements BeforeAllCallback,
                AfterAllCallback,
                BeforeEachCallback,
                AfterEachCallback,
                ParameterResolver {
    private static final Duration POLL = Duration.ofMillis(200);

    private final MiniClusterExtension cluster;
    private final Duration timeout;
    private EmbeddedKafka kafka;
    private String testStem = "test";
    private String testSuffix = "";

    private JobsRuntimeExtension(Builder builder) {
        this.timeout = builder.timeout;
        this.cluster =
                new MiniClusterExtension(
                        new MiniClusterResourceConfiguration.Builder()
                                .setNumberTaskManagers(1)
                                .setNumberSlotsPerTaskManager(builder.taskSlots)
                                .build());
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        kafka = EmbeddedKafka.builder().start();
        cluster.beforeAll(context);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            cluster.afterAll(context);
        } finally {
            if (kafka != null) {
                kafka.close();
            }
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        String name = context.getTestMethod().map(method -> method.getName()).orElse("test");
        String stem = name.replaceAll("[^A-Za-z0-9]", "-").toLowerCase(Locale.ROOT);
        testStem = stem.length() > 100 ? stem.substring(0, 100) : stem;
        testSuffix = UUID.randomUUID().toString().substring(0, 8);
        cluster.beforeEach(context);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        cluster.afterEach(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return cluster.supportsParameter(parameter, context);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return cluster.resolveParameter(parameter, context);
    }

    /** {@code host:port} of the broker. */
    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** Properties of a client of the broker (only its address), a fresh copy each call. */
    public Properties clientProperties() {
        return kafka.clientProperties();
    }

    /** The bound of every wait of this extension's helpers. */
    public Duration timeout() {
        return timeout;
    }

    /**
     * The name of the current test's topic of {@code role}: {@code it.<test method>.<role>.<8
     * random hex digits>}, one suffix for all the test's topics and another in every test. Not
     * created; see {@link #createTopic}.
     */
    public String topic(String role) {
        return "it." + testStem + "." + role + "." + testSuffix;
    }

    /**
     * Creates the current test's topic of {@code role} ({@link #topic}) and returns its name once
     * every partition has a leader.
     *
     * @param settings topic-level settings, e.g. {@code Topics.reportSettings()}
     */
    public String createTopic(String role, int partitions, Map<String, String> settings) {
        String name = topic(role);
        kafka.createTopic(name, partitions, settings);
        return name;
    }

    /** Writes the records and returns their metadata once the broker acknowledged every one. */
    public List<RecordMetadata> produce(List<ProducerRecord<String, byte[]>> records)
            throws Exception {
        List<RecordMetadata> acknowledged = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        kafka.clientProperties(),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ProducerRecord<String, byte[]> record : records) {
                sent.add(producer.send(record));
            }
            producer.flush();
            for (Future<RecordMetadata> future : sent) {
                acknowledged.add(future.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("the broker refused a record", e.getCause());
        }
        return acknowledged;
    }

    /**
     * The decoded committed records of {@code topic}, polled from its beginning until {@code done}
     * holds of them, then whatever more arrives in the {@code readOn} after that (0: nothing more).
     * Fails once {@link #timeout()} passes first: a deadline for a real condition, not a wait for a
     * result.
     */
    public <T> List<T> await(
            String topic, Function<byte[], T> decode, Predicate<List<T>> done, Duration readOn) {
        List<T> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = reader(topic, "read_committed")) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!done.test(read)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("only " + read.size() + " records on " + topic);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    read.add(decode.apply(record.value()));
                }
            }
            // What comes after the condition held (a batch released twice, a dead letter too
            // many) is read for readOn more, whatever the polls return meanwhile.
            long more = System.nanoTime() + readOn.toNanos();
            while (System.nanoTime() < more) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    read.add(decode.apply(record.value()));
                }
            }
        }
        return read;
    }

    /**
     * As {@link #await}, until at least {@code count} records arrived, then whatever more arrives
     * within 2 s: a test that expects exactly {@code count} sees one too many.
     */
    public <T> List<T> awaitAtLeast(String topic, Function<byte[], T> decode, int count) {
        return await(topic, decode, read -> read.size() >= count, Duration.ofSeconds(2));
    }

    /**
     * Every committed record of {@code topic} up to the end offsets it has now (for {@code
     * read_committed}, the last stable offsets), however many polls that takes.
     */
    public List<ConsumerRecord<byte[], byte[]>> drain(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = reader(topic, "read_committed")) {
            return readToEnd(consumer);
        }
    }

    /** As {@link #drain}, with the records of aborted transactions ({@code read_uncommitted}). */
    public List<ConsumerRecord<byte[], byte[]>> drainUncommitted(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = reader(topic, "read_uncommitted")) {
            return readToEnd(consumer);
        }
    }

    private List<ConsumerRecord<byte[], byte[]>> readToEnd(KafkaConsumer<byte[], byte[]> consumer) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment());
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ends.entrySet().stream()
                .anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("could not read to " + ends);
            }
            consumer.poll(POLL).forEach(records::add);
        }
        return records;
    }

    /** A consumer of every partition of {@code topic} from its beginning; the caller closes it. */
    private KafkaConsumer<byte[], byte[]> reader(String topic, String isolation) {
        Properties properties = kafka.clientProperties();
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(
                        properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (PartitionInfo info : consumer.partitionsFor(topic)) {
            partitions.add(new TopicPartition(topic, info.partition()));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }

    /** Options of the runtime; the defaults suit the jobs' ITCases. */
    public static final class Builder {
        private int taskSlots = 2;
        private Duration timeout = Duration.ofSeconds(120);

        private Builder() {}

        /** Slots of the MiniCluster's one TaskManager, at least 1 (default 2). */
        public Builder taskSlots(int taskSlots) {
            if (taskSlots < 1) {
                throw new IllegalArgumentException(
                        "taskSlots must be at least 1, got " + taskSlots);
            }
            this.taskSlots = taskSlots;
            return this;
        }

        /** Bound of every wait of the helpers, at least 1 s (default 120 s). */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("timeout must be at least 1 s, got " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        public JobsRuntimeExtension build() {
            return new JobsRuntimeExtension(this);
        }
    }
}
