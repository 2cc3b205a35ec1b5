package dev.fieldprof.jobs.frequency.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.jobs.testing.TestProgramModels;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The estimator's stored models: compressed, read back exactly, and read as they are from before.
 */
class StoredModelsTest {
    private static final byte[] MODEL =
            RecordCodec.of(ProgramModel.class)
                    .encode(TestProgramModels.model("app:1", 2_000, new int[][] {{0, 1}, {1, 2}}));

    @Test
    void aCompressedModelOpensToItsExactBytesAndIsSmaller() {
        byte[] stored = StoredModels.compress(MODEL);

        assertThat(stored.length).isLessThan(MODEL.length / 2);
        assertThat(StoredModels.open(stored)).isEqualTo(MODEL);
        assertThat(ProgramIndex.decode(StoredModels.open(stored)).methodCount()).isEqualTo(2_000);
    }

    @Test
    void bytesStoredBeforeCompressionOpenAsTheyAre() {
        assertThat(StoredModels.open(MODEL)).isSameAs(MODEL);
        assertThat(StoredModels.open(new byte[0])).isEmpty();
    }

    @Test
    void refusesBytesThatDoNotInflateOrInflatePastTheLargestModel() {
        byte[] cut = Arrays.copyOf(StoredModels.compress(MODEL), 40);
        assertThatThrownBy(() -> StoredModels.open(cut))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a stored program model does not inflate: ");
        byte[] bomb = StoredModels.compress(new byte[Topics.MAX_MODEL_BYTES + 1]);
        assertThatThrownBy(() -> StoredModels.open(bomb))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a stored program model inflates past 67108864 bytes");
    }
}
