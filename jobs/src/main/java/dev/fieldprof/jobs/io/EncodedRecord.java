package dev.fieldprof.jobs.io;

import java.io.Serializable;

/** A record ready for a Kafka topic: key and value bytes (Avro single-object encoded values). */
public class EncodedRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    public byte[] key;
    public byte[] value;

    public EncodedRecord() {}

    public EncodedRecord(byte[] key, byte[] value) {
        this.key = key;
        this.value = value;
    }
}
