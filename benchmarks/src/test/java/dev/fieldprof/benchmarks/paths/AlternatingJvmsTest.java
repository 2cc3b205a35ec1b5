package dev.fieldprof.benchmarks.paths;

import static dev.fieldprof.benchmarks.paths.TimedConfiguration.BLPP;
import static dev.fieldprof.benchmarks.paths.TimedConfiguration.ORIGINAL;
import static dev.fieldprof.benchmarks.paths.TimedConfiguration.PAP;
import static dev.fieldprof.benchmarks.paths.TimedConfiguration.PROBES_OFF;
import static dev.fieldprof.benchmarks.paths.TimedConfiguration.TRACER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.benchmarks.paths.AlternatingJvms.Slot;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlternatingJvmsTest {
    private static final List<TimedConfiguration> FIVE =
            List.of(ORIGINAL, PROBES_OFF, TRACER, BLPP, PAP);

    @Test
    void rotatesTheStartingConfigurationRoundByRound() {
        List<Slot> slots = AlternatingJvms.schedule(List.of("commons-lang3", "gson"), FIVE, 6);
        assertThat(slots).hasSize(6 * 2 * 5);
        assertThat(slots.subList(0, 10))
                .containsExactly(
                        new Slot(0, "commons-lang3", ORIGINAL),
                        new Slot(0, "commons-lang3", PROBES_OFF),
                        new Slot(0, "commons-lang3", TRACER),
                        new Slot(0, "commons-lang3", BLPP),
                        new Slot(0, "commons-lang3", PAP),
                        new Slot(0, "gson", ORIGINAL),
                        new Slot(0, "gson", PROBES_OFF),
                        new Slot(0, "gson", TRACER),
                        new Slot(0, "gson", BLPP),
                        new Slot(0, "gson", PAP));
        assertThat(slots.subList(10, 15))
                .containsExactly(
                        new Slot(1, "commons-lang3", PROBES_OFF),
                        new Slot(1, "commons-lang3", TRACER),
                        new Slot(1, "commons-lang3", BLPP),
                        new Slot(1, "commons-lang3", PAP),
                        new Slot(1, "commons-lang3", ORIGINAL));
        // Round 5 starts again where round 0 did.
        assertThat(slots.subList(50, 55)).isEqualTo(slotsOf(5, "commons-lang3", FIVE));
        assertThat(slots.subList(40, 45))
                .isEqualTo(
                        slotsOf(
                                4,
                                "commons-lang3",
                                List.of(PAP, ORIGINAL, PROBES_OFF, TRACER, BLPP)));
    }

    @Test
    void givesEveryConfigurationOneJvmPerRound() {
        List<TimedConfiguration> all = List.of(TimedConfiguration.values());
        List<Slot> slots = AlternatingJvms.schedule(List.of("gson", "guava"), all, 5);
        for (int r = 0; r < 5; r++) {
            for (String program : List.of("gson", "guava")) {
                int round = r;
                assertThat(
                                slots.stream()
                                        .filter(
                                                s ->
                                                        s.round() == round
                                                                && s.program().equals(program))
                                        .map(Slot::configuration))
                        .containsExactlyInAnyOrderElementsOf(all);
            }
        }
    }

    @Test
    void rejectsZeroRounds() {
        assertThatThrownBy(() -> AlternatingJvms.schedule(List.of("gson"), FIVE, 0))
                .hasMessage("rounds must be >= 1, got 0");
    }

    private static List<Slot> slotsOf(int round, String program, List<TimedConfiguration> order) {
        return order.stream().map(c -> new Slot(round, program, c)).toList();
    }
}
