package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.ShuffledBatch;
import dev.fieldprof.schemas.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a shuffled batch into ShuffledBatch records that each fit the shuffled topic: as many
 * payloads per part as fit, in the batch's order, every part naming the whole batch's size. The
 * size of a part is computed from Avro's binary encoding (a string or bytes is its length as a
 * variable-length integer and its bytes; an array one count, its items and a closing zero), with
 * the part number and the number of parts counted at their largest, so that a part's encoding is
 * never larger than the computed size.
 */
public final class BatchParts implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The largest encoded part on the shuffled topic: its record limit less room for the record's
     * key (a batch id and a part number, under 50 bytes) and Kafka's framing of a record and its
     * batch (61 bytes of batch header, at most 21 of record header).
     */
    public static final int MAX_PART_BYTES = Topics.MAX_REPORT_BYTES - 1024;

    private static final RecordCodec<ShuffledBatch> CODEC = RecordCodec.of(ShuffledBatch.class);

    /** Avro single-object encoding: two marker bytes and an 8-byte schema fingerprint. */
    private static final int HEADER_BYTES = 10;

    /** The most bytes of a variable-length int (the part number, the number of parts). */
    private static final int MAX_INT_BYTES = 5;

    /** The length of a batch id: a UUID's text. */
    private static final int UUID_CHARS = 36;

    private final int maxPartBytes;

    /**
     * @param maxPartBytes the largest encoded part ({@link #MAX_PART_BYTES} in the job)
     */
    public BatchParts(int maxPartBytes) {
        this.maxPartBytes = maxPartBytes;
    }

    /**
     * Whether a part holding only {@code sealed} fits: a report for which this is false can never
     * be released, so the job dead-letters it when it arrives.
     */
    public boolean fitsAlone(String appVersion, String configId, int sealedBytes) {
        return fixedBytes(UUID_CHARS, appVersion, configId, Integer.MAX_VALUE, Integer.MAX_VALUE)
                        + arrayBytes(1)
                        + bytesField(sealedBytes)
                <= maxPartBytes;
    }

    /**
     * The parts of one batch, in order.
     *
     * @param sealed the batch's payloads in their shuffled order, each one {@link #fitsAlone}
     * @throws IllegalArgumentException when a payload does not fit a part alone
     */
    public List<ShuffledBatch> split(
            String batchId,
            String appVersion,
            String configId,
            int minBatchSize,
            List<ByteBuffer> sealed) {
        int fixed =
                fixedBytes(utf8Length(batchId), appVersion, configId, sealed.size(), minBatchSize);
        List<List<ByteBuffer>> groups = new ArrayList<>();
        List<ByteBuffer> current = new ArrayList<>();
        long currentBytes = 0;
        for (ByteBuffer payload : sealed) {
            int itemBytes = bytesField(payload.remaining());
            if (fixed + arrayBytes(1) + itemBytes > maxPartBytes) {
                throw new IllegalArgumentException(
                        "a payload of " + payload.remaining() + " bytes fits no part");
            }
            if (!current.isEmpty()
                    && fixed + arrayBytes(current.size() + 1) + currentBytes + itemBytes
                            > maxPartBytes) {
                groups.add(current);
                current = new ArrayList<>();
                currentBytes = 0;
            }
            current.add(payload);
            currentBytes += itemBytes;
        }
        if (!current.isEmpty()) {
            groups.add(current);
        }
        List<ShuffledBatch> parts = new ArrayList<>(groups.size());
        for (int part = 0; part < groups.size(); part++) {
            parts.add(
                    ShuffledBatch.newBuilder()
                            .setBatchId(batchId)
                            .setAppVersion(appVersion)
                            .setConfigId(configId)
                            .setBatchSize(sealed.size())
                            .setMinBatchSize(minBatchSize)
                            .setPart(part)
                            .setParts(groups.size())
                            .setSealed(groups.get(part))
                            .build());
        }
        return parts;
    }

    /** The encoding of a part: what goes to the shuffled topic. */
    public static byte[] encode(ShuffledBatch part) {
        return CODEC.encode(part);
    }

    /**
     * The computed size of a part: what {@link #split} keeps within the bound, at least the
     * encoding's length.
     */
    public static long computedBytes(ShuffledBatch part) {
        long items = 0;
        for (ByteBuffer payload : part.getSealed()) {
            items += bytesField(payload.remaining());
        }
        return fixedBytes(
                        utf8Length(part.getBatchId()),
                        part.getAppVersion(),
                        part.getConfigId(),
                        part.getBatchSize(),
                        part.getMinBatchSize())
                + arrayBytes(part.getSealed().size())
                + items;
    }

    /** Everything but the array: header, batch id, app version, config and the four ints. */
    private static int fixedBytes(
            int batchIdBytes, String appVersion, String configId, int batchSize, int minBatchSize) {
        return HEADER_BYTES
                + bytesField(batchIdBytes)
                + bytesField(utf8Length(appVersion))
                + bytesField(utf8Length(configId))
                + varIntBytes(batchSize)
                + varIntBytes(minBatchSize)
                + 2 * MAX_INT_BYTES;
    }

    /** An array's count and closing zero (one zero byte alone when empty). */
    private static int arrayBytes(int count) {
        return count == 0 ? 1 : varIntBytes(count) + 1;
    }

    private static int bytesField(int length) {
        return varIntBytes(length) + length;
    }

    /** Bytes of Avro's zig-zag variable-length encoding of a non-negative int. */
    static int varIntBytes(int value) {
        long zigZag = ((long) value << 1) ^ (value >> 31);
        int bytes = 1;
        while ((zigZag & ~0x7FL) != 0) {
            zigZag >>>= 7;
            bytes++;
        }
        return bytes;
    }

    private static int utf8Length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
