package dev.fieldprof.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.util.RandomData;
import org.junit.jupiter.api.Test;

/** Per-method standard errors, and the common one for records written before v4. */
class StandardErrorsTest {
    private static final RecordCodec<EstimateWindow> CODEC = RecordCodec.of(EstimateWindow.class);

    private static EstimateWindow writtenWith(Schema writer, long seed) throws Exception {
        Object written = new RandomData(writer, 1, seed).iterator().next();
        ByteBuffer buffer = new BinaryMessageEncoder<>(GenericData.get(), writer).encode(written);
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return CODEC.decode(bytes);
    }

    @Test
    void aRecordWrittenBeforeV4UsesItsCommonErrorForEveryMethod() throws Exception {
        List<Schema> history = RecordCodec.historyOf("EstimateWindow");
        EstimateWindow old = writtenWith(history.get(2), 5L); // v3, before standardErrors
        old.setNormalized(List.of(0.1, 0.2, 0.7));
        old.setStandardError(0.015);
        assertThat(old.getStandardErrors()).isEmpty();
        assertThat(StandardErrors.perMethod(old)).isFalse();
        assertThat(StandardErrors.of(old, 0)).isEqualTo(0.015);
        assertThat(StandardErrors.of(old, 2)).isEqualTo(0.015);
        assertThat(StandardErrors.largest(old)).isEqualTo(0.015);
    }

    @Test
    void aV4RecordUsesEachMethodsOwnErrorAndTheCommonOneWhereItsIsUnusable() throws Exception {
        EstimateWindow window = writtenWith(CODEC.schema(), 6L);
        window.setNormalized(List.of(0.1, 0.2, 0.7, 0.0));
        window.setStandardError(0.015);
        window.setStandardErrors(List.of(0.02, 0.03, Double.NaN, -1.0));
        assertThat(StandardErrors.perMethod(window)).isTrue();
        assertThat(StandardErrors.of(window, 0)).isEqualTo(0.02);
        assertThat(StandardErrors.of(window, 1)).isEqualTo(0.03);
        assertThat(StandardErrors.of(window, 2)).isEqualTo(0.015);
        assertThat(StandardErrors.of(window, 3)).isEqualTo(0.015);
        assertThat(StandardErrors.largest(window)).isEqualTo(0.03);
        // One per method or none: a list of another length is not trusted.
        window.setStandardErrors(List.of(0.5));
        assertThat(StandardErrors.perMethod(window)).isFalse();
        assertThat(StandardErrors.of(window, 0)).isEqualTo(0.015);
    }
}
