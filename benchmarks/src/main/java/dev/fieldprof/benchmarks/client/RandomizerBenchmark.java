package dev.fieldprof.benchmarks.client;

import dev.fieldprof.ldp.ChaCha20RandomSource;
import dev.fieldprof.ldp.HypergeometricSampler;
import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SecureRandomSource;
import dev.fieldprof.ldp.SeededRandomSource;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Randomizing one report with |V| = 10,000 and k = 50,000: the exact O(|V|) randomizer with the two
 * secure generators (ChaCha20, the JDK's DRBG) and with a seeded one, the normal approximation of
 * frequency profiling (docs/references.md), and the naive per-event randomizer (O(k·|V|)); plus
 * drawing the exact k-sample from an epoch's counts.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RandomizerBenchmark {
    static final int METHODS = 10_000;
    static final int K = 50_000;

    private PrivacyParameters parameters;
    private int[] frequencies;
    private long[] epochCounts;
    private LocalRandomizer exactSecure;
    private LocalRandomizer exactChaCha20;
    private LocalRandomizer exactSeeded;
    private NormalApproximationRandomizer normal;
    private NaivePerEventRandomizer naive;
    private ChaCha20RandomSource sampling;

    @Setup
    public void setUp() {
        parameters = new PrivacyParameters(Math.log(9), 10, K);
        frequencies = skewedTrace(METHODS, K, 7);
        epochCounts = new long[METHODS];
        SplittableRandom random = new SplittableRandom(11);
        for (int v = 0; v < METHODS; v++) {
            // an epoch with about 2.5 million events, heavy-tailed over the methods
            epochCounts[v] = (long) (50 / Math.pow(1 + random.nextDouble() * 99, 1.2) * 100);
        }
        exactSecure = new LocalRandomizer(parameters, new SecureRandomSource());
        exactChaCha20 = new LocalRandomizer(parameters, new ChaCha20RandomSource());
        exactSeeded = new LocalRandomizer(parameters, new SeededRandomSource(3));
        normal = new NormalApproximationRandomizer(parameters, 5);
        naive = new NaivePerEventRandomizer(parameters, new SeededRandomSource(9));
        sampling = new ChaCha20RandomSource();
    }

    /** k events over |V| methods, Zipf-like, as a profile of a real program looks. */
    static int[] skewedTrace(int methods, int k, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] f = new int[methods];
        for (int i = 0; i < k; i++) {
            double u = random.nextDouble();
            int v = (int) Math.min(methods - 1, Math.floor(Math.pow(methods, u)) - 1);
            f[v]++;
        }
        return f;
    }

    @Benchmark
    public int[] exactSecureRandom() {
        return exactSecure.randomize(frequencies);
    }

    @Benchmark
    public int[] exactChaCha20Random() {
        return exactChaCha20.randomize(frequencies);
    }

    @Benchmark
    public int[] exactSeededRandom() {
        return exactSeeded.randomize(frequencies);
    }

    @Benchmark
    public int[] normalApproximation() {
        return normal.randomize(frequencies);
    }

    @Benchmark
    public int[] sampleKOfEpoch() {
        return HypergeometricSampler.sampleMultivariate(sampling, epochCounts, K);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1)
    @Measurement(iterations = 2)
    public int[] naivePerEvent() {
        return naive.randomize(frequencies);
    }
}
