package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.tracing.EdgeModelStore;
import dev.fieldprof.client.tracing.KafkaEdgeModelFeed;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import dev.fieldprof.runtime.EmbeddedKafka;
import dev.fieldprof.schemas.PoisonRecords;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The device's edge-model feed on a real broker, with two short EdgeModel records claiming
 * gigabytes ahead of a valid model under the device's app version: it counts both as undecodable
 * and adopts the model after them. Before the bound, decoding the first threw OutOfMemoryError on
 * the feed's thread, in the host program, and the thread died: the device never adopted a model.
 */
class EdgeModelFeedHostileRecordsITCase {
    private static final String APP = "feed-it:1.0";
    private static final RecordCodec<dev.fieldprof.schemas.EdgeModel> MODELS =
            RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.builder().start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void countsThePoisonModelsAndAdoptsTheValidOneAfterThem() throws Exception {
        String topic = "it.edges." + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(topic, 1, Topics.compactedSettings());
        ArrayBranchTable table = ArrayBranchTable.builder(2).branch(1, 0, 2).build();
        EdgeModel learned =
                EdgeModel.builder(EdgeModel.uniform(table))
                        .version(1)
                        .writer("job-a")
                        .frequencies(1, 0, new int[] {7, 1})
                        .build();
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        kafka.clientProperties(),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            for (byte[] value :
                    List.of(
                            PoisonRecords.fifteenBytesClaimingTwoGigabyteString(MODELS.schema()),
                            modelClaimingNodes(),
                            MODELS.encode(
                                    EdgeModelRecords.toRecord(learned, APP, Instant.EPOCH, 1)))) {
                producer.send(new ProducerRecord<>(topic, APP, value)).get(30, TimeUnit.SECONDS);
            }
        }

        EdgeModelStore store = new EdgeModelStore(APP, table);
        try (KafkaEdgeModelFeed feed =
                new KafkaEdgeModelFeed(kafka.bootstrapServers(), topic, store)) {
            assertThat(store.awaitVersion(1, Duration.ofSeconds(60)))
                    .as("the model after the poison is adopted")
                    .isTrue();
            // The feed counts an adoption just after the store took the model: wait for it.
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (feed.adopted() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(10); // polling a counter the feed's thread sets
            }
            assertThat(feed.undecodable()).isEqualTo(2);
            assertThat(feed.adopted()).isEqualTo(1);
            assertThat(store.current().writer()).isEqualTo("job-a");
        }
    }

    /** An EdgeModel whose header fields are valid and whose nodes array claims 2·10⁹ items. */
    private static byte[] modelClaimingNodes() {
        ByteArrayOutputStream out = PoisonRecords.header(MODELS.schema());
        byte[] app = APP.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        PoisonRecords.varLong(out, app.length); // appVersion
        out.writeBytes(app);
        PoisonRecords.varLong(out, 2); // version
        PoisonRecords.varLong(out, 0); // writer: ""
        PoisonRecords.varLong(out, 0); // branchFingerprint
        PoisonRecords.varLong(out, 1); // pathFormat
        PoisonRecords.varLong(out, 1); // inc
        PoisonRecords.varLong(out, 64); // bound
        PoisonRecords.varLong(out, 0); // createdAtMillis
        PoisonRecords.varLong(out, 0); // windowReports
        PoisonRecords.varLong(out, PoisonRecords.CLAIM); // nodes
        return out.toByteArray();
    }
}
