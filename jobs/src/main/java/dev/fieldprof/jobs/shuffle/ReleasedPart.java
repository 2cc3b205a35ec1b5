package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.jobs.io.EncodedRecord;
import java.io.Serializable;

/**
 * One encoded ShuffledBatch part and the time its batch was released: the only time that leaves the
 * shuffler, as the part's Kafka record timestamp. A Flink POJO.
 */
public class ReleasedPart implements Serializable {
    private static final long serialVersionUID = 1L;

    public byte[] key;
    public byte[] value;
    public long releasedAtMillis;

    public ReleasedPart() {}

    public ReleasedPart(byte[] key, byte[] value, long releasedAtMillis) {
        this.key = key;
        this.value = value;
        this.releasedAtMillis = releasedAtMillis;
    }

    public EncodedRecord toEncoded() {
        return new EncodedRecord(key, value);
    }
}
