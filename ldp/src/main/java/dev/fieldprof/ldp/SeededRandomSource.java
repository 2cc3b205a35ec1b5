package dev.fieldprof.ldp;

import java.util.SplittableRandom;

/**
 * Reproducible randomness for tests, simulations and benchmarks. Not cryptographically secure:
 * never use it on a real device, where an observer who learns the seed can undo the randomizer.
 */
public final class SeededRandomSource implements RandomSource {
    private final long seed;
    private final SplittableRandom random;

    /**
     * Creates a source whose whole sequence is fixed by {@code seed} (any value). Not thread-safe.
     *
     * <pre>{@code
     * RandomSource random = new SeededRandomSource(42L);
     * }</pre>
     */
    public SeededRandomSource(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    /** The seed this source started from; tests print it on failure. */
    public long seed() {
        return seed;
    }

    @Override
    public long nextLong() {
        return random.nextLong();
    }

    @Override
    public String toString() {
        return "SeededRandomSource(seed=" + seed + ")";
    }
}
