package dev.fieldprof.jobs.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.ShuffledBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Splitting a batch into parts that fit the topic, at the exact byte bound. */
class BatchPartsTest {
    private static final String BATCH_ID = "00000000-0000-0000-0000-000000000000";

    private static List<ByteBuffer> payloads(int count, int bytes) {
        List<ByteBuffer> payloads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] payload = new byte[bytes];
            payload[0] = (byte) i;
            payloads.add(ByteBuffer.wrap(payload));
        }
        return payloads;
    }

    /**
     * A part of batch id (1 + 36 bytes), "a:1" (1 + 3), "c" (1 + 1), batch size 10 and minimum 2
     * (one byte each), part and parts (counted at 5 bytes each) and the header (10) takes 65 bytes
     * before its array; three payloads of 50 bytes take 1 + 3·51 + 1 more (a length below 64 is one
     * byte): 220. At a bound of 220 ten payloads go three to a part, at 219 two.
     */
    @Test
    void fillsEachPartUpToTheBound() {
        List<ByteBuffer> ten = payloads(10, 50);
        assertThat(new BatchParts(220).split(BATCH_ID, "a:1", "c", 2, ten))
                .extracting(p -> p.getSealed().size())
                .containsExactly(3, 3, 3, 1);
        List<ShuffledBatch> twos = new BatchParts(219).split(BATCH_ID, "a:1", "c", 2, ten);
        assertThat(twos).extracting(p -> p.getSealed().size()).containsExactly(2, 2, 2, 2, 2);
        assertThat(twos).extracting(ShuffledBatch::getPart).containsExactly(0, 1, 2, 3, 4);
        assertThat(twos).extracting(ShuffledBatch::getParts).containsOnly(5);
        assertThat(twos).extracting(ShuffledBatch::getBatchSize).containsOnly(10);
        assertThat(twos).extracting(ShuffledBatch::getMinBatchSize).containsOnly(2);
        assertThat(twos).extracting(ShuffledBatch::getBatchId).containsOnly(BATCH_ID);
        assertThat(twos.stream().flatMap(p -> p.getSealed().stream()).toList())
                .as("the batch's order, kept across the parts")
                .containsExactlyElementsOf(ten);
        assertThat(twos)
                .allSatisfy(p -> assertThat(BatchParts.encode(p).length).isLessThanOrEqualTo(219));
    }

    /**
     * At the job's bound (1 MiB − 1 KiB = 1,047,552 bytes), 2,000 payloads of 1,000 bytes go 1,045
     * to the first part (75 fixed bytes + 3 of array framing + 1,045 · 1,002 = 1,047,168; one more
     * would take 1,048,170) and 955 to the second; each encoding is the computed size less the 8
     * bytes part and parts take below their 5-byte allowance.
     */
    @Test
    void splitsAtTheTopicsRecordLimit() {
        List<ShuffledBatch> parts =
                new BatchParts(BatchParts.MAX_PART_BYTES)
                        .split(BATCH_ID, "app:1", "default", 1000, payloads(2000, 1000));
        assertThat(BatchParts.MAX_PART_BYTES).isEqualTo(1_047_552);
        assertThat(parts).extracting(p -> p.getSealed().size()).containsExactly(1045, 955);
        assertThat(parts).extracting(ShuffledBatch::getBatchSize).containsOnly(2000);
        assertThat(parts)
                .extracting(BatchParts::computedBytes)
                .containsExactly(1_047_168L, 956_988L);
        assertThat(parts)
                .extracting(p -> BatchParts.encode(p).length)
                .containsExactly(1_047_160, 956_980);
        RecordCodec<ShuffledBatch> codec = RecordCodec.of(ShuffledBatch.class);
        assertThat(codec.decode(BatchParts.encode(parts.get(1)))).isEqualTo(parts.get(1));
    }

    @Test
    void refusesAPayloadNoPartCanHold() {
        BatchParts parts = new BatchParts(370);
        // 73 fixed bytes at the largest ints (10 + 37 + 4 + 2 + 4 · 5), 2 of array framing, 2 of
        // length: a payload of 293 bytes makes 370.
        assertThat(parts.fitsAlone("a:1", "c", 293)).isTrue();
        assertThat(parts.fitsAlone("a:1", "c", 294)).isFalse();
        assertThatThrownBy(() -> parts.split(BATCH_ID, "a:1", "c", 1, payloads(1, 400)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a payload of 400 bytes fits no part");
    }
}
