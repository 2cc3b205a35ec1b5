package dev.fieldprof.jobs.frequency.core;

import static dev.fieldprof.jobs.frequency.core.SequenceWindow.Verdict.DUPLICATE;
import static dev.fieldprof.jobs.frequency.core.SequenceWindow.Verdict.NEW;
import static dev.fieldprof.jobs.frequency.core.SequenceWindow.Verdict.TOO_OLD;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SequenceWindowTest {

    @Test
    void countsEachNumberOnceInAnyOrderWithinTheWindow() {
        SequenceWindow window = SequenceWindow.of(null);
        List<SequenceWindow.Verdict> verdicts = new ArrayList<>();
        for (long sequence : new long[] {1, 2, 2, 5, 3, 5, 4, 1, 69, 6, 5, 70, 4}) {
            window = SequenceWindow.of(window.toState()); // as saved and read back by Flink
            verdicts.add(window.offer(sequence));
        }
        assertThat(verdicts)
                .containsExactly(
                        NEW, NEW, DUPLICATE, NEW, NEW, DUPLICATE, NEW, DUPLICATE, NEW, NEW, TOO_OLD,
                        NEW, TOO_OLD);
        assertThat(window.latest()).isEqualTo(70);
    }

    /** Against a set of every number seen, on random re-sends within the window. */
    @Test
    void agreesWithRememberingEveryNumberWhileResendsStayWithinTheWindow() {
        long seed = 20_261_124L;
        SplittableRandom random = new SplittableRandom(seed);
        SequenceWindow window = SequenceWindow.of(null);
        TreeSet<Long> counted = new TreeSet<>();
        long next = 1;
        for (int step = 0; step < 100_000; step++) {
            long sequence =
                    random.nextInt(3) == 0 || counted.isEmpty()
                            ? next++
                            : Math.max(1, next - 1 - random.nextInt(SequenceWindow.SIZE));
            SequenceWindow.Verdict expected = counted.add(sequence) ? NEW : DUPLICATE;
            assertThat(window.offer(sequence))
                    .as("seed %d, step %d", seed, step)
                    .isEqualTo(expected);
        }
    }
}
