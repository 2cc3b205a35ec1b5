package dev.fieldprof.jobs.io;

import java.io.Serializable;

/**
 * One Kafka record as read, bytes untouched: where it came from, its timestamp and its key and
 * value, so that a record the job cannot use goes to the dead letters whole. A Flink POJO.
 */
public class RawRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    public String topic;
    public int partition;
    public long offset;

    /** Kafka record timestamp in epoch milliseconds: the event time of the job. */
    public long timestamp;

    public byte[] key;
    public byte[] value;

    public RawRecord() {}

    public RawRecord(
            String topic, int partition, long offset, long timestamp, byte[] key, byte[] value) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.timestamp = timestamp;
        this.key = key;
        this.value = value;
    }

    /**
     * Where the record is, without its bytes: what a validated report carries on, so that its bytes
     * cross the network no more (a dead letter of it names topic, partition and offset).
     */
    public RawRecord withoutBytes() {
        return new RawRecord(topic, partition, offset, timestamp, null, null);
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset;
    }
}
