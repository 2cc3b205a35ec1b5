package dev.fieldprof.ldp;

/**
 * The only way randomness enters the randomizer and the samplers: 64 uniformly random bits at a
 * time. Production code uses {@link ChaCha20RandomSource} (the SDK's default, keyed from the JDK's
 * DRBG) or {@link SecureRandomSource} (the DRBG itself); tests and simulations inject a {@link
 * SeededRandomSource} so that every draw is reproducible.
 */
public interface RandomSource {

    /** Returns 64 independent uniformly distributed random bits. */
    long nextLong();

    /**
     * Returns a uniform double in the open interval (0, 1) with 53 random bits; never 0 or 1, so
     * that logarithms and divisions in the rejection samplers are always defined.
     */
    default double nextOpenUnit() {
        // j / 2^53 for a uniform 53-bit j != 0: exact, in [2^-53, 1 - 2^-53]. The former
        // ((x >>> 11) + 0.5) * 2^-53 rounded 1 - 2^-54 to 1.0 for the largest x.
        long j;
        do {
            j = nextLong() >>> 11;
        } while (j == 0);
        return j * 0x1.0p-53;
    }
}
