package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.runtime.EmbeddedRuntime;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The runtime every ITCase stands on: a real broker with transactions and a real MiniCluster. */
class EmbeddedRuntimeITCase {

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder().partitions(4).taskSlots(2).build();

    @Test
    void readsBackWhatWasProduced() {
        String topic = RUNTIME.createRandomTopic(1, false);

        RUNTIME.produce(topic, List.of("first", "second", "third"));

        assertThat(RUNTIME.drain(topic, new StringDeserializer()))
                .containsExactly("first", "second", "third");
    }

    @Test
    void readCommittedConsumerSeesOnlyCommittedTransactions() {
        String topic = RUNTIME.createRandomTopic(1, false);
        Properties properties = RUNTIME.clientProperties();
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "it-" + UUID.randomUUID());
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "committed-1"));
            producer.send(new ProducerRecord<>(topic, "committed-2"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "aborted"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "committed-3"));
            producer.commitTransaction();
        }

        assertThat(RUNTIME.drain(topic, new StringDeserializer()))
                .containsExactly("committed-1", "committed-2", "committed-3");
    }

    @Test
    void createsTheTenFieldprofTopicsCompactedWhereDesigned() throws Exception {
        Map<String, TopicDescription> topics =
                RUNTIME.admin().describeTopics(EmbeddedRuntime.TOPICS).allTopicNames().get();
        assertThat(topics.keySet())
                .containsExactlyInAnyOrder(
                        Topics.PROGRAMS,
                        Topics.FREQUENCY_REPORTS,
                        Topics.FREQUENCY_REPLAY,
                        Topics.SHUFFLER_INPUT,
                        Topics.SHUFFLED_REPORTS,
                        Topics.PATH_REPORTS,
                        Topics.ESTIMATES,
                        Topics.EDGE_MODELS,
                        Topics.DEAD_LETTERS,
                        Topics.SHUFFLER_DEAD_LETTERS);
        topics.values().forEach(topic -> assertThat(topic.partitions()).hasSize(4));

        List<ConfigResource> resources =
                EmbeddedRuntime.TOPICS.stream()
                        .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic))
                        .collect(Collectors.toList());
        Map<ConfigResource, Config> configs =
                RUNTIME.admin().describeConfigs(resources).all().get();
        Map<String, String> policies =
                configs.entrySet().stream()
                        .collect(
                                Collectors.toMap(
                                        entry -> entry.getKey().name(),
                                        entry ->
                                                entry.getValue()
                                                        .get(TopicConfig.CLEANUP_POLICY_CONFIG)
                                                        .value()));
        assertThat(policies)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                Topics.PROGRAMS, "compact",
                                Topics.FREQUENCY_REPORTS, "delete",
                                Topics.FREQUENCY_REPLAY, "delete",
                                Topics.SHUFFLER_INPUT, "delete",
                                Topics.SHUFFLED_REPORTS, "delete",
                                Topics.PATH_REPORTS, "delete",
                                Topics.ESTIMATES, "compact",
                                Topics.EDGE_MODELS, "compact",
                                Topics.DEAD_LETTERS, "delete",
                                Topics.SHUFFLER_DEAD_LETTERS, "delete"));
    }

    @Test
    void flinkJobOnTheMiniClusterCopiesATopicExactlyOnce() throws Exception {
        String input = RUNTIME.createRandomTopic(1, false);
        String output = RUNTIME.createRandomTopic(1, false);
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            words.add("word-" + i);
        }
        RUNTIME.produce(input, words);

        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(1);
        // The exactly-once sink commits its transaction when a checkpoint completes.
        env.enableCheckpointing(200);
        KafkaSource<String> source =
                KafkaSource.<String>builder()
                        .setBootstrapServers(RUNTIME.bootstrapServers())
                        .setTopics(input)
                        .setGroupId("it-" + UUID.randomUUID())
                        .setStartingOffsets(OffsetsInitializer.earliest())
                        .setBounded(OffsetsInitializer.latest())
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();
        KafkaSink<String> sink = exactlyOnceSink(output);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "words")
                .uid("words")
                .map(new UpperCase())
                .name("upper-case")
                .uid("upper-case")
                .sinkTo(sink)
                .name("upper-case-words")
                .uid("upper-case-words");

        env.execute("copy-upper-case");

        List<String> expected =
                words.stream().map(w -> w.toUpperCase(Locale.ROOT)).collect(Collectors.toList());
        assertThat(RUNTIME.drain(output, new StringDeserializer())).isEqualTo(expected);
    }

    @Test
    void awaitRecordsSeesTheOutputOfAStreamingJob() throws Exception {
        String input = RUNTIME.createRandomTopic(2, false);
        String output = RUNTIME.createRandomTopic(1, false);
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        KafkaSource<String> source =
                KafkaSource.<String>builder()
                        .setBootstrapServers(RUNTIME.bootstrapServers())
                        .setTopics(input)
                        .setGroupId("it-" + UUID.randomUUID())
                        .setStartingOffsets(OffsetsInitializer.earliest())
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "words")
                .uid("words")
                .map(new UpperCase())
                .name("upper-case")
                .uid("upper-case")
                .sinkTo(exactlyOnceSink(output))
                .name("upper-case-words")
                .uid("upper-case-words");
        JobClient job = env.executeAsync("streaming-upper-case");
        try {
            RUNTIME.produce(input, List.of("a", "b", "c", "d", "e", "f"));

            assertThat(
                            RUNTIME.awaitRecords(
                                    output, new StringDeserializer(), 6, Duration.ofSeconds(60)))
                    .containsExactlyInAnyOrder("A", "B", "C", "D", "E", "F");
        } finally {
            job.cancel().get();
        }
    }

    private static KafkaSink<String> exactlyOnceSink(String topic) {
        return KafkaSink.<String>builder()
                .setBootstrapServers(RUNTIME.bootstrapServers())
                .setRecordSerializer(
                        KafkaRecordSerializationSchema.builder()
                                .setTopic(topic)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .build())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix("it-" + UUID.randomUUID())
                // Below the broker's transaction.max.timeout.ms (Flink's default is 1 h).
                .setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "600000")
                .build();
    }

    /** The job's one transformation. */
    static final class UpperCase implements MapFunction<String, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String map(String value) {
            return value.toUpperCase(Locale.ROOT);
        }
    }
}
