package dev.fieldprof.jobs.frequency.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.ldp.PrivacyParameters;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProgramShapeTest {

    @Test
    void travelsAsBytesAndChangesGenerationOnlyWithItsParameters() {
        ProgramShape shape =
                new ProgramShape(
                        "app:1",
                        40,
                        Map.of(
                                "default", new PrivacyParameters(Math.log(9), 10, 200),
                                "strict", new PrivacyParameters(1.0, 1, 200)));
        ProgramShape back = ProgramShape.fromBytes(shape.toBytes());

        assertThat(back.appVersion()).isEqualTo("app:1");
        assertThat(back.describe()).isEqualTo(shape.describe());
        assertThat(back.generation()).isEqualTo(shape.generation());
        assertThat(
                        new ProgramShape(
                                        "app:1",
                                        40,
                                        Map.of(
                                                "default",
                                                new PrivacyParameters(Math.log(9), 10, 200),
                                                "strict",
                                                new PrivacyParameters(1.0, 2, 200)))
                                .generation())
                .isNotEqualTo(shape.generation());
    }
}
