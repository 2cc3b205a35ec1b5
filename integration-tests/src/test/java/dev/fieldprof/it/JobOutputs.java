package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.EstimateKeys;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** What the frequency job has published so far, read back from a test's broker. */
final class JobOutputs {
    private static final RecordCodec<EstimateWindow> ESTIMATES =
            RecordCodec.of(EstimateWindow.class);
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);

    private JobOutputs() {}

    /** Every dead letter on {@code topic}, in the order read. */
    static List<DeadLetter> deadLetters(FieldprofRuntimeExtension runtime, String topic) {
        return runtime.drain(topic, new ByteArrayDeserializer()).stream()
                .map(LETTERS::decode)
                .toList();
    }

    /**
     * What a consumer of the compacted estimates topic holds: the last value read of each key, each
     * key checked to be the one its estimate names.
     */
    static Map<String, EstimateWindow> latestValuePerKey(
            FieldprofRuntimeExtension runtime, String topic) {
        Map<String, EstimateWindow> latest = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record :
                runtime.drainRecords(
                        topic, new StringDeserializer(), new ByteArrayDeserializer())) {
            EstimateWindow window = ESTIMATES.decode(record.value());
            assertThat(record.key()).isEqualTo(EstimateKeys.of(window));
            latest.put(record.key(), window);
        }
        return latest;
    }
}
