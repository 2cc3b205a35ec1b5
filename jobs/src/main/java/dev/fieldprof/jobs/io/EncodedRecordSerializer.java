package dev.fieldprof.jobs.io;

import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Writes encoded records to one topic with their key. */
public final class EncodedRecordSerializer
        implements KafkaRecordSerializationSchema<EncodedRecord> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    public EncodedRecordSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            EncodedRecord record, KafkaSinkContext context, Long timestamp) {
        return new ProducerRecord<>(topic, null, timestamp, record.key, record.value);
    }
}
