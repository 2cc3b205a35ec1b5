package dev.fieldprof.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.util.RandomData;
import org.junit.jupiter.api.Test;

/** Revisions of an estimate: their key, what old records read as, and which one a reader keeps. */
class EstimateKeysTest {
    private static final RecordCodec<EstimateWindow> CODEC = RecordCodec.of(EstimateWindow.class);

    private static EstimateWindow writtenWith(Schema writer, long seed) {
        Object written = new RandomData(writer, 1, seed).iterator().next();
        ByteBuffer buffer;
        try {
            buffer = new BinaryMessageEncoder<>(GenericData.get(), writer).encode(written);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return CODEC.decode(bytes);
    }

    private static EstimateWindow window(long start, boolean cumulative, int revision, long n) {
        EstimateWindow window = writtenWith(CODEC.schema(), 7L);
        window.setAppVersion("app:1");
        window.setConfigId("c");
        window.setModelGeneration(0xabcL);
        window.setWindowStartMillis(Instant.ofEpochMilli(start));
        window.setWindowEndMillis(Instant.ofEpochMilli(start + 10));
        window.setCumulative(cumulative);
        window.setRevision(revision);
        window.setReports(n);
        return EstimateWindow.newBuilder(window).build();
    }

    @Test
    void aRecordWrittenBeforeV5IsTheFirstRevision() {
        List<Schema> history = RecordCodec.historyOf("EstimateWindow");
        assertThat(history.get(4).getField("revision")).as("v5 added it").isNotNull();
        assertThat(history.get(3).getField("revision")).isNull();
        assertThat(writtenWith(history.get(3), 3L).getRevision()).isEqualTo(1);
    }

    @Test
    void aWindowIsKeyedByAppConfigGenerationAndBoundsTheCumulativeEstimateWithoutBounds() {
        assertThat(EstimateKeys.of(window(100, false, 1, 5)))
                .isEqualTo("app:1\u0000c\u0000abc\u0000100-110");
        assertThat(EstimateKeys.of(window(100, true, 1, 5)))
                .isEqualTo(EstimateKeys.of(window(300, true, 2, 9)))
                .isEqualTo("app:1\u0000c\u0000abc\u0000cumulative");
    }

    @Test
    void aReaderKeepsTheHighestRevisionOfEachKeyInTheOrderKeysFirstAppear() {
        List<EstimateWindow> latest =
                EstimateKeys.latest(
                        List.of(
                                window(100, false, 1, 5),
                                window(110, false, 1, 7),
                                window(100, false, 2, 6),
                                // An older revision read after a newer one is ignored.
                                window(100, false, 1, 5)));
        assertThat(latest).extracting(EstimateWindow::getReports).containsExactly(6L, 7L);
        assertThat(latest).extracting(EstimateWindow::getRevision).containsExactly(2, 1);
    }
}
