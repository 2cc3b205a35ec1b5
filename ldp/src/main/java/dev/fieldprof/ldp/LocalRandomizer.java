package dev.fieldprof.ldp;

/**
 * The device's ε-t randomizer in its O(|V|) form (section 4.1, "Efficient Randomization", of
 * frequency profiling in docs/references.md): R(F)(v) = Binomial(F(v), p) + Binomial(k − F(v), 1 −
 * p), independently for every v, with both binomials sampled exactly. Equivalent in distribution to
 * the per-event randomizer, which randomizes each of the k events on its own.
 */
public final class LocalRandomizer {
    private final PrivacyParameters parameters;
    private final RandomSource random;
    private final BinomialSampler.Prepared keepNone;

    /**
     * Creates a randomizer. Not thread-safe (it consumes {@code random}); one per device runtime.
     *
     * <pre>{@code
     * LocalRandomizer randomizer =
     *         new LocalRandomizer(new PrivacyParameters(Math.log(9), 1, 5), new ChaCha20RandomSource());
     * int[] reported = randomizer.randomize(new int[] {5, 0});
     * }</pre>
     *
     * @param parameters ε, t, k
     * @param random a cryptographically secure source on devices; a seeded one in tests
     */
    public LocalRandomizer(PrivacyParameters parameters, RandomSource random) {
        if (parameters == null || random == null) {
            throw new IllegalArgumentException("parameters and random must not be null");
        }
        this.parameters = parameters;
        this.random = random;
        // Both binomials use q = 1 - p: Binomial(f, p) = f - Binomial(f, q) in distribution.
        this.keepNone = new BinomialSampler.Prepared(1 - parameters.p(), parameters.k());
    }

    public PrivacyParameters parameters() {
        return parameters;
    }

    /**
     * Randomizes one frequency vector.
     *
     * @param frequencies F: non-negative counts summing to exactly k
     * @return R(F), each entry in [0, k]
     */
    public int[] randomize(int[] frequencies) {
        int k = parameters.k();
        long sum = 0;
        for (int i = 0; i < frequencies.length; i++) {
            if (frequencies[i] < 0) {
                throw new IllegalArgumentException(
                        "frequencies must be >= 0, got " + frequencies[i] + " at index " + i);
            }
            sum += frequencies[i];
        }
        if (sum != k) {
            throw new IllegalArgumentException("frequencies must sum to k=" + k + ", got " + sum);
        }
        int[] out = new int[frequencies.length];
        for (int v = 0; v < frequencies.length; v++) {
            int f = frequencies[v];
            // Binomial(f, p) = f − Binomial(f, q): the same draws BinomialSampler.sample makes
            // for p > 1/2, but with the per-n setups cached (most v have F(v) = 0 or small, so
            // k − F(v) is near k).
            out[v] = f - keepNone.sample(random, f) + keepNone.sample(random, k - f);
        }
        return out;
    }

    /**
     * The exact pmf of one reported count: Pr[R(F)(v) = z] for F(v) = f, the convolution of the two
     * binomials. Used by the privacy audit and the tests.
     */
    public static double countPmf(PrivacyParameters parameters, int f, int z) {
        int k = parameters.k();
        if (f < 0 || f > k) {
            throw new IllegalArgumentException("f must be in [0, k=" + k + "], got " + f);
        }
        if (z < 0 || z > k) {
            return 0;
        }
        double p = parameters.p();
        double sum = 0;
        for (int kept = Math.max(0, z - (k - f)); kept <= Math.min(f, z); kept++) {
            sum += BinomialSampler.pmf(f, p, kept) * BinomialSampler.pmf(k - f, 1 - p, z - kept);
        }
        return sum;
    }
}
