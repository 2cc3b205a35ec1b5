package dev.fieldprof.benchmarks.client;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.Probes;
import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.ChaCha20RandomSource;
import dev.fieldprof.ldp.HypergeometricSampler;
import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SecureRandomSource;
import dev.fieldprof.ldp.SeededRandomSource;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;

/**
 * The same operations as the JMH benchmarks, timed by the measuring thread's CPU time rather than
 * wall-clock time: on a machine shared with other work, wall-clock figures include time spent
 * descheduled, CPU time does not. Printed next to the JMH figures.
 */
final class CpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static volatile long sink;

    private CpuTime() {}

    /** CPU nanoseconds per call of {@code op}, median of {@code rounds} rounds. */
    static double nanosPerOp(IntSupplier op, int calls, int rounds) {
        for (int i = 0; i < calls; i++) {
            sink += op.getAsInt(); // warm-up
        }
        double[] perOp = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long start = THREADS.getCurrentThreadCpuTime();
            long acc = 0;
            for (int i = 0; i < calls; i++) {
                acc += op.getAsInt();
            }
            perOp[r] = (THREADS.getCurrentThreadCpuTime() - start) / (double) calls;
            sink += acc;
        }
        java.util.Arrays.sort(perOp);
        return perOp[rounds / 2];
    }

    static Map<String, Double> randomizers() {
        PrivacyParameters parameters =
                new PrivacyParameters(Math.log(9), 10, RandomizerBenchmark.K);
        int[] f =
                RandomizerBenchmark.skewedTrace(
                        RandomizerBenchmark.METHODS, RandomizerBenchmark.K, 7);
        long[] epoch = new long[RandomizerBenchmark.METHODS];
        SplittableRandom random = new SplittableRandom(11);
        for (int v = 0; v < epoch.length; v++) {
            epoch[v] = (long) (50 / Math.pow(1 + random.nextDouble() * 99, 1.2) * 100);
        }
        LocalRandomizer secure = new LocalRandomizer(parameters, new SecureRandomSource());
        LocalRandomizer chacha = new LocalRandomizer(parameters, new ChaCha20RandomSource());
        LocalRandomizer seeded = new LocalRandomizer(parameters, new SeededRandomSource(3));
        NormalApproximationRandomizer normal = new NormalApproximationRandomizer(parameters, 5);
        ChaCha20RandomSource sampling = new ChaCha20RandomSource();
        Map<String, Double> micros = new LinkedHashMap<>();
        micros.put("exactSecureRandom", nanosPerOp(() -> secure.randomize(f)[0], 200, 9) / 1e3);
        micros.put("exactChaCha20Random", nanosPerOp(() -> chacha.randomize(f)[0], 200, 9) / 1e3);
        micros.put("exactSeededRandom", nanosPerOp(() -> seeded.randomize(f)[0], 200, 9) / 1e3);
        micros.put("normalApproximation", nanosPerOp(() -> normal.randomize(f)[0], 200, 9) / 1e3);
        micros.put(
                "sampleKOfEpoch",
                nanosPerOp(
                                () ->
                                        HypergeometricSampler.sampleMultivariate(
                                                sampling, epoch, RandomizerBenchmark.K)[0],
                                200,
                                9)
                        / 1e3);
        return micros;
    }

    /** CPU ns per call: uninstrumented and counted, on one thread and on each of two threads. */
    static Map<String, Double> counting() throws IOException, InterruptedException {
        CallbackReportTransport transport = new CallbackReportTransport(r -> {}, 16);
        DeviceRuntime runtime =
                DeviceRuntime.start(
                        ClientConfig.builder()
                                .appVersion("bench:1")
                                .deviceId("bench-cpu")
                                .methodCount(CountingBenchmark.METHODS)
                                .privacy("default", 1.0, 1, 1_000)
                                .checkpointInterval(null)
                                .stateDir(Files.createTempDirectory("fieldprof-bench"))
                                .build(),
                        transport,
                        new SeededRandomSource(1),
                        Clock.systemUTC());
        Probes.install(runtime);
        Map<String, Double> nanos = new LinkedHashMap<>();
        try {
            int calls = 20_000_000;
            nanos.put("baselineOneThread", loop(false, calls));
            nanos.put("countedOneThread", loop(true, calls));
            nanos.put("baselineTwoThreads", twoThreads(false, calls));
            nanos.put("countedTwoThreads", twoThreads(true, calls));
        } finally {
            Probes.install(null);
            runtime.close();
            transport.close();
        }
        return nanos;
    }

    private static double loop(boolean counted, int calls) {
        int[] x = {17};
        return nanosPerOp(
                        () -> {
                            int value = x[0];
                            for (int i = 0; i < 1_000; i++) {
                                value =
                                        counted
                                                ? CountingBenchmark.instrumented(value)
                                                : CountingBenchmark.uninstrumented(value);
                            }
                            x[0] = value;
                            return value;
                        },
                        calls / 1_000,
                        5)
                / 1_000;
    }

    private static double twoThreads(boolean counted, int calls) throws InterruptedException {
        double[] result = new double[2];
        Thread[] threads = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int index = t;
            threads[t] = new Thread(() -> result[index] = loop(counted, calls));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return (result[0] + result[1]) / 2;
    }
}
