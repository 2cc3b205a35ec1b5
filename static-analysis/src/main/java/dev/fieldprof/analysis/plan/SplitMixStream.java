package dev.fieldprof.analysis.plan;

import java.util.SplittableRandom;

/**
 * The hill climb's draws from a {@link SplittableRandom}, the very same values in the same order,
 * with the next ones readable before they are drawn, so that a move can bring the sets it is about
 * to draw into cache all at once instead of one cache miss after another.
 *
 * <p>{@code SplittableRandom} is SplitMix (Steele, Lea and Flood, OOPSLA 2014): its {@code k}-th
 * output mixes the seed {@code s₀ + k·γ}, {@code nextInt()} with {@code mix32}, {@code nextLong()}
 * with the invertible {@code mix64}, and {@code nextInt(bound)} is the JDK's rejection loop over
 * {@code nextInt()} ({@code RandomSupport.boundedNextInt}). So this class takes its first two seeds
 * from the source with {@code nextLong()} (which consumes a seed exactly as {@code nextInt()} does)
 * and inverts {@code mix64} to learn {@code s} and {@code γ}; from then on it computes the stream
 * itself and {@link #sync} advances the source by the seeds it computed, so the source ends where
 * the same calls on it would have left it.
 *
 * <p>That rests on the JDK's implementation, not its specification, so the class checks itself
 * against the running JDK once ({@link #REPLICA_MATCHES}: outputs and the source's state
 * afterwards, for several seeds and bounds, the rejection path included); where they differ it
 * passes every call to the source and reads nothing ahead. Not thread-safe.
 */
final class SplitMixStream {

    /** Most outputs {@link #peekRaw} reads ahead. */
    static final int MAX_AHEAD = 64;

    static final boolean REPLICA_MATCHES = replicaMatches();

    private final SplittableRandom source;
    private final boolean replica;

    // Seeds learnt from the source (0, 1 or 2), the last seed consumed and the increment.
    private int learnt;
    private long seed;
    private long gamma;
    // Seeds consumed here and not yet from the source.
    private long unsynced;

    // Raw outputs (nextInt() values) of the seeds after `seed`, computed ahead: a ring.
    private final int[] ahead = new int[MAX_AHEAD];
    private int aheadStart;
    private int aheadCount;

    // The bound most calls use, and Lemire's constant for it: for 0 <= u < 2^32, u % bound is the
    // high 64 bits of (M·u mod 2^64)·bound with M = ceil(2^64 / bound) (Lemire, Kaser and Kurz,
    // "Faster remainder by direct computation", 2019, Theorem 1): two multiplications instead of a
    // division, the same remainder.
    private final int frequentBound;
    private final long frequentM;

    /**
     * @param frequentBound the bound most {@link #nextInt} calls pass (any positive int; others
     *     work too, with a division each)
     */
    SplitMixStream(SplittableRandom source, int frequentBound) {
        this(source, REPLICA_MATCHES, frequentBound);
    }

    private SplitMixStream(SplittableRandom source, boolean replica, int frequentBound) {
        if (frequentBound <= 0) {
            throw new IllegalArgumentException(
                    "frequentBound must be positive, was " + frequentBound);
        }
        this.source = source;
        this.replica = replica;
        this.frequentBound = frequentBound;
        this.frequentM = Long.divideUnsigned(-1L, frequentBound) + 1;
    }

    /** {@code u % frequentBound} for {@code 0 <= u < 2^31}, without a division. */
    int remainderOfFrequent(int u) {
        long lowBits = frequentM * u;
        // The unsigned high half of lowBits·bound, from the signed one (bound > 0).
        return (int)
                (Math.multiplyHigh(lowBits, frequentBound) + ((lowBits >> 63) & frequentBound));
    }

    /**
     * The value {@code nextInt(frequentBound)} makes of raw output {@code r} (see {@link
     * #peekRaw}), unless it rejects it.
     */
    int frequentOf(int r) {
        int m = frequentBound - 1;
        return (frequentBound & m) == 0 ? r & m : remainderOfFrequent(r >>> 1);
    }

    /** Exactly {@code source.nextInt(bound)} (the JDK's {@code boundedNextInt}). */
    int nextInt(int bound) {
        if (!replica) {
            return source.nextInt(bound);
        }
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive");
        }
        int m = bound - 1;
        int r = nextRaw();
        if ((bound & m) == 0) {
            return r & m;
        }
        if (bound == frequentBound) {
            for (int u = r >>> 1; u + m - (r = remainderOfFrequent(u)) < 0; u = nextRaw() >>> 1) {}
            return r;
        }
        for (int u = r >>> 1; u + m - (r = u % bound) < 0; u = nextRaw() >>> 1) {}
        return r;
    }

    /**
     * Whether outputs can be read ahead: the replica matches the JDK and the stream's increment is
     * known (after its first two outputs).
     */
    boolean canPeek() {
        return learnt == 2;
    }

    /**
     * The {@code k}-th raw output from now ({@code 0 ≤ k <} {@link #MAX_AHEAD}), without consuming
     * it; needs {@link #canPeek}. {@code nextInt(bound)} turns one raw output {@code r} into {@code
     * r & (bound − 1)} for a power of two, else {@code (r >>> 1) % bound} unless that is rejected
     * (probability below {@code bound / 2³¹}), when it takes the next one.
     */
    int peekRaw(int k) {
        while (aheadCount <= k) {
            ahead[(aheadStart + aheadCount) & (MAX_AHEAD - 1)] =
                    mix32(seed + (aheadCount + 1) * gamma);
            aheadCount++;
        }
        return ahead[(aheadStart + k) & (MAX_AHEAD - 1)];
    }

    /**
     * Advances the source by every seed consumed here, so that it stands where this stream does.
     */
    void sync() {
        for (; unsynced > 0; unsynced--) {
            source.nextLong();
        }
    }

    private int nextRaw() {
        if (learnt < 2) {
            long s = unmix64(source.nextLong());
            if (learnt == 1) {
                gamma = s - seed;
            }
            seed = s;
            learnt++;
            return mix32(s);
        }
        seed += gamma;
        unsynced++;
        if (aheadCount > 0) {
            int r = ahead[aheadStart];
            aheadStart = (aheadStart + 1) & (MAX_AHEAD - 1);
            aheadCount--;
            return r;
        }
        return mix32(seed);
    }

    private static int mix32(long z) {
        z = (z ^ (z >>> 33)) * 0x62a9d9ed799705f5L;
        return (int) (((z ^ (z >>> 28)) * 0xcb24d0a5c88c35b3L) >>> 32);
    }

    /** The inverse of SplitMix's {@code mix64} (Stafford's variant 13). */
    static long unmix64(long z) {
        z = unshiftRight(z, 31);
        z *= 0x319642b2d24d8ec3L; // inverse of 0x94d049bb133111eb mod 2^64
        z = unshiftRight(z, 27);
        z *= 0x96de1b173f119089L; // inverse of 0xbf58476d1ce4e5b9 mod 2^64
        return unshiftRight(z, 30);
    }

    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** Inverts {@code z ^ (z >>> shift)}. */
    private static long unshiftRight(long z, int shift) {
        long x = z;
        for (int known = shift; known < 64; known += shift) {
            x = z ^ (x >>> shift);
        }
        return x;
    }

    private static boolean replicaMatches() {
        long[] seeds = {1L, 42L, -7L, 0L, Long.MIN_VALUE, 0x9e3779b97f4a7c15L, 50_000L};
        int[] bounds = {1, 2, 3, 7, 8, 36, 50_000, (1 << 30) + 1, Integer.MAX_VALUE};
        for (int k = 0; k < seeds.length * bounds.length; k++) {
            long s = seeds[k % seeds.length];
            SplittableRandom expected = new SplittableRandom(s);
            SplitMixStream stream =
                    new SplitMixStream(new SplittableRandom(s), true, bounds[k % bounds.length]);
            for (int i = 0; i < 400; i++) {
                int bound = bounds[i % bounds.length];
                if (i % 5 == 3 && stream.canPeek()) {
                    stream.peekRaw(i % MAX_AHEAD);
                }
                if (stream.nextInt(bound) != expected.nextInt(bound)) {
                    return false;
                }
            }
            stream.sync();
            if (stream.source.nextLong() != expected.nextLong()) {
                return false;
            }
        }
        return true;
    }
}
