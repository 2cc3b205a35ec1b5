package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The climb's replica of SplittableRandom draws what the JDK's draws, and leaves it as it would.
 */
class SplitMixStreamTest {

    @Test
    void replicaMatchesTheRunningJdk() {
        assertThat(SplitMixStream.REPLICA_MATCHES).isTrue();
    }

    @Test
    void unmix64InvertsMix64() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 10_000; i++) {
            long z = random.nextLong();
            assertThat(SplitMixStream.unmix64(SplitMixStream.mix64(z))).isEqualTo(z);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 42, -5, 10_000, 50_000})
    void drawsEqualTheSourcesAndLeaveItWhereTheSameCallsWould(long seed) {
        SplittableRandom expected = new SplittableRandom(seed);
        SplittableRandom source = new SplittableRandom(seed);
        int frequent = 50_000;
        SplitMixStream stream = new SplitMixStream(source, frequent);
        SplittableRandom bounds = new SplittableRandom(seed + 1);
        for (int i = 0; i < 100_000; i++) {
            int bound =
                    switch (bounds.nextInt(5)) {
                        case 0 -> 36;
                        case 1 -> 1 + bounds.nextInt(8);
                        case 2 -> 1 + bounds.nextInt(Integer.MAX_VALUE);
                        default -> frequent;
                    };
            if (stream.canPeek() && bounds.nextInt(4) == 0) {
                stream.peekRaw(bounds.nextInt(SplitMixStream.MAX_AHEAD));
            }
            assertThat(stream.nextInt(bound))
                    .as("seed %d, draw %d", seed, i)
                    .isEqualTo(expected.nextInt(bound));
        }
        stream.sync();
        assertThat(source.nextLong()).isEqualTo(expected.nextLong());
    }

    @Test
    void peekedOutputsAreTheSourcesNextRawOutputs() {
        SplittableRandom expected = new SplittableRandom(9);
        SplitMixStream stream = new SplitMixStream(new SplittableRandom(9), 7);
        stream.nextInt(8);
        stream.nextInt(8);
        expected.nextInt();
        expected.nextInt();
        assertThat(stream.canPeek()).isTrue();
        int[] peeked = new int[SplitMixStream.MAX_AHEAD];
        for (int k = 0; k < peeked.length; k++) {
            peeked[k] = stream.peekRaw(k);
        }
        for (int k = 0; k < peeked.length; k++) {
            assertThat(peeked[k]).isEqualTo(expected.nextInt());
        }
    }

    @Test
    void remainderOfTheFrequentBoundIsTheRemainder() {
        SplittableRandom random = new SplittableRandom(11);
        for (int bound : new int[] {1, 3, 36, 50_000, 65_537, (1 << 30) + 1, Integer.MAX_VALUE}) {
            SplitMixStream stream = new SplitMixStream(new SplittableRandom(1), bound);
            for (int i = 0; i < 20_000; i++) {
                int u = random.nextInt() >>> 1;
                assertThat(stream.remainderOfFrequent(u)).isEqualTo(u % bound);
            }
            assertThat(stream.remainderOfFrequent(Integer.MAX_VALUE))
                    .isEqualTo(Integer.MAX_VALUE % bound);
            assertThat(stream.remainderOfFrequent(0)).isZero();
        }
    }
}
