package dev.fieldprof.it;

import dev.fieldprof.runtime.EmbeddedFlink;
import dev.fieldprof.runtime.EmbeddedKafka;
import dev.fieldprof.runtime.EmbeddedRuntime;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The one broker and Flink MiniCluster that an ITCase class shares: started before the first test,
 * closed after the last. By default the broker is the embedded KRaft broker; with {@code
 * -Dfieldprof.kafka=testcontainers} it is a Testcontainers {@code apache/kafka} container, and
 * without a Docker engine such a class is skipped (never failed). Helpers read topics to their end
 * offsets or poll a real condition, never sleep.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final FieldprofRuntimeExtension RUNTIME =
 *         FieldprofRuntimeExtension.builder().partitions(4).taskSlots(4).build();
 * }</pre>
 */
public final class FieldprofRuntimeExtension
        implements ExecutionCondition,
                BeforeAllCallback,
                AfterAllCallback,
                BeforeEachCallback,
                AfterEachCallback {

    /** System property choosing the Kafka side: {@code embedded} (default) or testcontainers. */
    public static final String KAFKA_PROPERTY = "fieldprof.kafka";

    /** System property overriding the image of the testcontainers broker. */
    public static final String IMAGE_PROPERTY = "fieldprof.kafka.image";

    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final int partitions;
    private final int taskSlots;
    private final boolean fieldprofTopics;
    private final boolean saslSsl;
    private final List<String> aclUsers;

    private EmbeddedRuntime embedded;
    private java.nio.file.Path certificateDir;
    private TestCertificates certificates;
    private EmbeddedKafka.SaslSslListener saslSslListener;
    private KafkaContainer container;
    private EmbeddedFlink containerFlink;
    private String bootstrapServers;
    private Admin admin;
    private String testName = "test";

    private FieldprofRuntimeExtension(Builder builder) {
        this.partitions = builder.partitions;
        this.taskSlots = builder.taskSlots;
        this.fieldprofTopics = builder.fieldprofTopics;
        this.saslSsl = builder.saslSsl;
        this.aclUsers = List.copyOf(builder.aclUsers);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether this run uses a Testcontainers broker instead of the embedded one. */
    public static boolean usesTestcontainers() {
        return "testcontainers"
                .equalsIgnoreCase(System.getProperty(KAFKA_PROPERTY, "embedded").trim());
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (usesTestcontainers()) {
            startWithContainer();
        } else {
            if (saslSsl) {
                certificateDir = java.nio.file.Files.createTempDirectory("fieldprof-tls-");
                certificates = TestCertificates.generate(certificateDir);
                saslSslListener =
                        new EmbeddedKafka.SaslSslListener(
                                certificates.brokerKeyStore(),
                                certificates.password(),
                                SASL_USER,
                                UUID.randomUUID().toString());
                if (!aclUsers.isEmpty()) {
                    for (String user : aclUsers) {
                        saslSslListener =
                                saslSslListener.withUser(user, UUID.randomUUID().toString());
                    }
                    saslSslListener = saslSslListener.withAcls();
                }
            }
            embedded =
                    EmbeddedRuntime.builder()
                            .partitions(partitions)
                            .taskSlots(taskSlots)
                            .createTopics(fieldprofTopics)
                            .saslSslListener(saslSslListener)
                            .build()
                            .start();
            bootstrapServers = embedded.bootstrapServers();
        }
        Properties adminProperties = new Properties();
        adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        admin = Admin.create(adminProperties);
        if (container != null && fieldprofTopics) {
            for (String topic : EmbeddedRuntime.TOPICS) {
                createTopic(topic, partitions, Topics.settings(topic));
            }
        }
    }

    /**
     * Disables the class, with a reason the test report shows, when testcontainers are asked for
     * and no Docker engine answers: such a run is skipped, never failed.
     */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (!usesTestcontainers()) {
            return ConditionEvaluationResult.enabled("embedded broker");
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            String reason =
                    "-D"
                            + KAFKA_PROPERTY
                            + "=testcontainers needs a Docker engine and none runs here: "
                            + context.getDisplayName()
                            + " skipped (run without the property to use the embedded broker)";
            // Surefire keeps the reason in its XML report only; say it where people look too.
            if (context.getTestMethod().isEmpty()) {
                System.err.println(reason);
            }
            return ConditionEvaluationResult.disabled(reason);
        }
        return ConditionEvaluationResult.enabled("testcontainers broker");
    }

    private void startWithContainer() throws Exception {
        String image =
                System.getProperty(IMAGE_PROPERTY, "apache/kafka:" + AppInfoParser.getVersion());
        container =
                new KafkaContainer(image)
                        .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                        .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
                        .withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
                        .withEnv("KAFKA_TRANSACTION_MAX_TIMEOUT_MS", "900000")
                        .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        container.start();
        bootstrapServers = container.getBootstrapServers();
        containerFlink = EmbeddedFlink.builder().taskSlots(taskSlots).start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        testName =
                context.getTestMethod()
                        .map(method -> method.getName())
                        .orElse(context.getDisplayName());
    }

    /**
     * Cancels the jobs a test left running: a test that fails before its own cancel would otherwise
     * keep the shared MiniCluster's slots, and every later test of the class would wait for a job
     * that never gets scheduled (seen: one failed assertion turned into three failures).
     */
    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        EmbeddedFlink cluster = flink();
        if (cluster == null) {
            return;
        }
        for (var job : cluster.miniCluster().listJobs().get(30, TimeUnit.SECONDS)) {
            if (!job.getJobState().isGloballyTerminalState()) {
                cluster.miniCluster().cancelJob(job.getJobId()).get(30, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
        } finally {
            try {
                if (embedded != null) {
                    embedded.close();
                }
            } finally {
                try {
                    if (containerFlink != null) {
                        containerFlink.close();
                    }
                } finally {
                    if (container != null) {
                        container.stop();
                    }
                    if (certificateDir != null) {
                        try (var files = java.nio.file.Files.walk(certificateDir)) {
                            for (java.nio.file.Path file :
                                    files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                                java.nio.file.Files.deleteIfExists(file);
                            }
                        }
                    }
                }
            }
        }
    }

    /** The SCRAM user of the SASL_SSL listener ({@link Builder#saslSsl()}). */
    public static final String SASL_USER = "fieldprof";

    /**
     * {@code 127.0.0.1:PORT} of the broker's SASL_SSL listener (SCRAM-SHA-512 over TLS); the class
     * is skipped on a Testcontainers broker, which has none.
     */
    public String saslSslBootstrapServers() {
        requireSaslSsl();
        return embedded.kafka().saslSslBootstrapServers();
    }

    /** The certificates of the SASL_SSL listener, made for this run. */
    public TestCertificates certificates() {
        requireSaslSsl();
        return certificates;
    }

    /**
     * Client properties of the SASL_SSL listener, as a user writes them into a {@code
     * --kafka-properties} file: the listener's address, SCRAM-SHA-512 as {@link #SASL_USER} with
     * {@code password}, and {@code trustStore} (the CA's, or another to see the handshake fail).
     */
    public Properties saslSslClientProperties(String password, java.nio.file.Path trustStore) {
        requireSaslSsl();
        Properties client = new Properties();
        client.put("bootstrap.servers", saslSslBootstrapServers());
        client.put("security.protocol", "SASL_SSL");
        client.put("sasl.mechanism", EmbeddedKafka.SaslSslListener.MECHANISM);
        client.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                        + SASL_USER
                        + "\" password=\""
                        + password
                        + "\";");
        client.put("ssl.truststore.type", "PKCS12");
        client.put("ssl.truststore.location", trustStore.toString());
        client.put("ssl.truststore.password", certificates.password());
        return client;
    }

    /**
     * Client properties of the SASL_SSL listener as {@code user} (one of {@link Builder#aclUsers}),
     * with the CA's trust store.
     */
    public Properties saslSslClientPropertiesOf(String user) {
        requireSaslSsl();
        String password = saslSslListener.otherUsers().get(user);
        if (password == null) {
            throw new IllegalArgumentException("no SCRAM user " + user + " on this broker");
        }
        Properties client = saslSslClientProperties(password, certificates.trustStore());
        client.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                        + user
                        + "\" password=\""
                        + password
                        + "\";");
        return client;
    }

    /** The password of {@link #SASL_USER} the broker knows. */
    public String saslPassword() {
        requireSaslSsl();
        return saslSslListener.password();
    }

    private void requireSaslSsl() {
        Assumptions.assumeTrue(
                embedded != null,
                "the SASL_SSL listener needs the embedded broker: run without -D"
                        + KAFKA_PROPERTY
                        + "=testcontainers");
        if (saslSslListener == null) {
            throw new IllegalStateException("build the extension with saslSsl()");
        }
    }

    /** {@code host:port} of the broker. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * Stops the embedded broker as an outage would (its ports and logs kept); {@link
     * #restartBroker()} brings it back. A test calling this is skipped on a Testcontainers broker,
     * whose restart would map another port.
     */
    public void stopBroker() {
        requireEmbeddedBroker().stop();
    }

    /**
     * Starts the stopped embedded broker again on the same port and logs; returns once every
     * partition has a leader.
     */
    public void restartBroker() {
        requireEmbeddedBroker().restart();
    }

    private EmbeddedKafka requireEmbeddedBroker() {
        Assumptions.assumeTrue(
                embedded != null,
                "a broker restart on the same port needs the embedded broker: run without -D"
                        + KAFKA_PROPERTY
                        + "=testcontainers");
        return embedded.kafka();
    }

    /** The shared MiniCluster. */
    public EmbeddedFlink flink() {
        return embedded != null ? embedded.flink() : containerFlink;
    }

    /** A new environment whose jobs run on the shared MiniCluster. */
    public StreamExecutionEnvironment environment() {
        return flink().environment();
    }

    /** An admin client of the broker, owned by the extension. */
    public Admin admin() {
        return admin;
    }

    /** Partitions of the fieldprof topics and of {@link #createRandomTopic}'s default. */
    public int partitions() {
        return partitions;
    }

    /**
     * A topic name no other test uses: the current test method's name and a random suffix. The
     * topic is not created; see {@link #createRandomTopic}.
     */
    public String randomTopic() {
        String stem = testName.replaceAll("[^A-Za-z0-9._-]", "-").toLowerCase(Locale.ROOT);
        if (stem.length() > 100) {
            stem = stem.substring(0, 100);
        }
        return "it." + stem + "." + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * Creates a fresh random topic ({@link #randomTopic()}), compacted or deleted by retention, and
     * returns its name. Topics the jobs read reports from: {@link #createRandomReportTopic}.
     */
    public String createRandomTopic(int partitions, boolean compacted) {
        String topic = randomTopic();
        createTopic(topic, partitions, compacted);
        return topic;
    }

    /**
     * Creates a fresh random topic of reports: stamped with the broker's append time, as every
     * report topic fieldprof creates ({@link Topics#reportSettings()}).
     */
    public String createRandomReportTopic(int partitions) {
        String topic = randomTopic();
        createTopic(topic, partitions, Topics.reportSettings());
        return topic;
    }

    /** Creates a topic (replication factor 1) and waits until each partition has a leader. */
    public void createTopic(String name, int partitions, boolean compacted) {
        createTopic(
                name, partitions, compacted ? Topics.compactedSettings() : Topics.resultSettings());
    }

    /** Creates a topic with these settings and waits until each partition has a leader. */
    public void createTopic(String name, int partitions, Map<String, String> settings) {
        Map<String, String> configs = new HashMap<>(settings);
        try {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
                    .all()
                    .get(DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Could not create " + name, e.getCause());
            }
        } catch (Exception e) {
            throw new IllegalStateException("Could not create " + name, e);
        }
        partitionsOf(name, DEFAULT_TIMEOUT);
    }

    /** Client properties with the bootstrap address, for producers of a test's own. */
    public Properties clientProperties() {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return properties;
    }

    /** Writes the records (acks=all, idempotent) and returns once every one is acknowledged. */
    public <K, V> List<RecordMetadata> produce(
            Collection<ProducerRecord<K, V>> records, Serializer<K> keys, Serializer<V> values) {
        Properties properties = clientProperties();
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        try (KafkaProducer<K, V> producer = new KafkaProducer<>(properties, keys, values)) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ProducerRecord<K, V> record : records) {
                sent.add(producer.send(record));
            }
            producer.flush();
            List<RecordMetadata> acknowledged = new ArrayList<>();
            for (Future<RecordMetadata> future : sent) {
                acknowledged.add(future.get(DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            }
            return acknowledged;
        } catch (ExecutionException e) {
            throw new IllegalStateException("Produce failed", e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException("Produce failed", e);
        }
    }

    /** Writes string values without keys to one topic. */
    public List<RecordMetadata> produce(String topic, List<String> values) {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (String value : values) {
            records.add(new ProducerRecord<>(topic, value));
        }
        return produce(records, new StringSerializer(), new StringSerializer());
    }

    /**
     * Reads every committed record of the topic ({@code read_committed}), from the beginning to the
     * end offsets taken when the call starts: partition by partition, each in offset order.
     */
    public <V> List<V> drain(String topic, Deserializer<V> values) {
        List<V> result = new ArrayList<>();
        for (ConsumerRecord<byte[], V> record :
                drainRecords(topic, new ByteArrayDeserializer(), values)) {
            result.add(record.value());
        }
        return result;
    }

    /** Like {@link #drain} but with keys, offsets and timestamps. */
    public <K, V> List<ConsumerRecord<K, V>> drainRecords(
            String topic, Deserializer<K> keys, Deserializer<V> values) {
        List<TopicPartition> partitions = partitionsOf(topic, DEFAULT_TIMEOUT);
        try (KafkaConsumer<K, V> consumer = newConsumer(keys, values)) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            // With read_committed these are the last stable offsets: all that is committed now.
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Map<TopicPartition, List<ConsumerRecord<K, V>>> read = new HashMap<>();
            long deadline = System.nanoTime() + DEFAULT_TIMEOUT.toNanos();
            while (!reachedEnd(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(
                            "Could not read " + topic + " to its end offsets " + end);
                }
                for (ConsumerRecord<K, V> record : consumer.poll(Duration.ofMillis(100))) {
                    TopicPartition partition =
                            new TopicPartition(record.topic(), record.partition());
                    if (record.offset() < end.get(partition)) {
                        read.computeIfAbsent(partition, p -> new ArrayList<>()).add(record);
                    }
                }
            }
            List<ConsumerRecord<K, V>> result = new ArrayList<>();
            for (TopicPartition partition : partitions) {
                result.addAll(read.getOrDefault(partition, List.of()));
            }
            return result;
        }
    }

    private static boolean reachedEnd(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> entry : end.entrySet()) {
            if (consumer.position(entry.getKey()) < entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Polls the topic ({@code read_committed}, from the beginning) until at least {@code count}
     * records have arrived and returns them in arrival order; fails with the count seen when the
     * timeout passes first.
     */
    public <V> List<V> awaitRecords(
            String topic, Deserializer<V> values, int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<TopicPartition> partitions = partitionsOf(topic, timeout);
        List<V> result = new ArrayList<>();
        try (KafkaConsumer<byte[], V> consumer = newConsumer(new ByteArrayDeserializer(), values)) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (result.size() < count) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(
                            "Expected "
                                    + count
                                    + " records on "
                                    + topic
                                    + " within "
                                    + timeout
                                    + " but saw "
                                    + result.size());
                }
                for (ConsumerRecord<byte[], V> record : consumer.poll(Duration.ofMillis(100))) {
                    result.add(record.value());
                }
            }
        }
        return result;
    }

    private <K, V> KafkaConsumer<K, V> newConsumer(Deserializer<K> keys, Deserializer<V> values) {
        Properties properties = clientProperties();
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(properties, keys, values);
    }

    /** The topic's partitions, waiting for the topic to appear (a job may create it). */
    private List<TopicPartition> partitionsOf(String topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                TopicDescription description =
                        admin.describeTopics(List.of(topic))
                                .allTopicNames()
                                .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                                .get(topic);
                if (description.partitions().stream()
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    List<TopicPartition> result = new ArrayList<>();
                    description
                            .partitions()
                            .forEach(p -> result.add(new TopicPartition(topic, p.partition())));
                    return result;
                }
            } catch (ExecutionException e) {
                // Unknown topic or lagging metadata: ask again until the deadline.
            } catch (Exception e) {
                throw new IllegalStateException("Could not describe " + topic, e);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Topic " + topic + " not ready within " + timeout);
            }
            try {
                Thread.sleep(50); // polling interval of a real condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Sizes of the shared runtime. */
    public static final class Builder {
        private int partitions = 4;
        private int taskSlots = 4;
        private boolean fieldprofTopics = true;
        private boolean saslSsl;
        private final List<String> aclUsers = new ArrayList<>();

        private Builder() {}

        /**
         * A SASL_SSL listener ({@link #saslSsl()}) on a broker that authorizes every request by
         * ACLs, with these SCRAM users besides {@link #SASL_USER}; the plaintext listener (the
         * extension's own admin) stays a super user.
         */
        public Builder aclUsers(String... users) {
            this.saslSsl = true;
            this.aclUsers.addAll(List.of(users));
            return this;
        }

        /**
         * Gives the embedded broker a SASL_SSL listener too: SCRAM-SHA-512 over TLS, with a CA, key
         * store and trust stores made by keytool for this run ({@link TestCertificates}).
         */
        public Builder saslSsl() {
            this.saslSsl = true;
            return this;
        }

        /** Partitions of the fieldprof topics (default 4). */
        public Builder partitions(int partitions) {
            this.partitions = partitions;
            return this;
        }

        /** Slots of the MiniCluster (default 4). */
        public Builder taskSlots(int taskSlots) {
            this.taskSlots = taskSlots;
            return this;
        }

        /** Whether the ten fieldprof topics are created before the first test (default yes). */
        public Builder fieldprofTopics(boolean create) {
            this.fieldprofTopics = create;
            return this;
        }

        public FieldprofRuntimeExtension build() {
            return new FieldprofRuntimeExtension(this);
        }
    }
}
