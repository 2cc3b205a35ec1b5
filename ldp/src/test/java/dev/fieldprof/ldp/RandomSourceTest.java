package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The open unit interval every sampler draws from. */
class RandomSourceTest {
    /** Returns the given words in order. */
    private static RandomSource words(Long... values) {
        ArrayDeque<Long> queue = new ArrayDeque<>(List.of(values));
        return queue::removeFirst;
    }

    @Test
    void theLargestWordGivesTheLargestDoubleBelowOneNeverOne() {
        // The former ((x >>> 11) + 0.5) * 2^-53 gave exactly 1.0 here.
        assertThat(words(-1L).nextOpenUnit()).isEqualTo(1 - 0x1.0p-53).isLessThan(1.0);
    }

    @Test
    void zeroBitsAreDrawnAgainSoZeroNeverComes() {
        assertThat(words(0L, 0x7FFL, 1L << 11).nextOpenUnit()).isEqualTo(0x1.0p-53);
    }

    @Test
    void usesAll53HighBitsAcrossTheRange() {
        assertThat(words(1L << 63).nextOpenUnit()).isEqualTo(0.5);
        assertThat(words(0x0123456789ABCDEFL).nextOpenUnit())
                .isEqualTo((0x0123456789ABCDEFL >>> 11) * 0x1.0p-53);
        // The lowest of the 53 bits changes the result: no bit is dropped.
        assertThat(words(1L << 11).nextOpenUnit()).isNotEqualTo(words(2L << 11).nextOpenUnit());
    }
}
