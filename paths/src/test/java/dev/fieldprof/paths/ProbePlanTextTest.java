package dev.fieldprof.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProbePlanTextTest {
    @Test
    void roundTripsAndMarksEachVariantsMethods() {
        ProbePlanText plan = new ProbePlanText(-4321, 5, new int[][] {{4, 1}, {}, {0, 2, 3}});
        String text = plan.toText();
        assertThat(text)
                .isEqualTo(
                        "fieldprof-plan 1\n"
                                + "salt -4321\n"
                                + "methods 5\n"
                                + "variants 3\n"
                                + "0 1,4\n"
                                + "1 \n"
                                + "2 0,2,3\n");
        ProbePlanText back = ProbePlanText.parse(text);
        assertThat(back.toText()).isEqualTo(text);
        assertThat(back.traced(0)).containsExactly(false, true, false, false, true);
        assertThat(back.traced(1)).containsExactly(false, false, false, false, false);
        assertThat(back.variantOf("device-1"))
                .isEqualTo(new VariantAssignment(-4321, 3).variantOf("device-1"));
    }

    @Test
    void namesWhatIsWrong() {
        assertThatThrownBy(() -> new ProbePlanText(1, 3, new int[][] {{3}}))
                .hasMessage("variant 0 names method 3, outside [0, 3)");
        assertThatThrownBy(() -> ProbePlanText.parse("fieldprof-plan 1\nsalt 1\nvariants 2\n"))
                .hasMessage("expected 'methods ...', got 'variants 2'");
    }
}
