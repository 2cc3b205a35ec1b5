package dev.fieldprof.benchmarks.client;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.Probes;
import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Nanoseconds per counted event: a loop of calls to a small method that, when instrumented, starts
 * with {@code Probes.enter(id)}, against the same loop uninstrumented, on one and on two threads
 * (each thread counts into its own stripe of the same runtime).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CountingBenchmark {
    static final int CALLS = 1_000;
    static final int METHODS = 1_024;

    private DeviceRuntime runtime;
    private CallbackReportTransport transport;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        transport = new CallbackReportTransport(r -> {}, 16);
        runtime =
                DeviceRuntime.start(
                        ClientConfig.builder()
                                .appVersion("bench:1")
                                .deviceId("bench")
                                .methodCount(METHODS)
                                .privacy("default", 1.0, 1, 1_000)
                                .checkpointInterval(null)
                                .stateDir(Files.createTempDirectory("fieldprof-bench"))
                                .build(),
                        transport,
                        new SeededRandomSource(1),
                        Clock.systemUTC());
        Probes.install(runtime);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        Probes.install(null);
        runtime.close();
        transport.close();
    }

    /** Per-thread loop state, so that two threads do not share a cache line. */
    @State(Scope.Thread)
    public static class Work {
        int seed = 17;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int uninstrumented(int x) {
        return x * 31 + 7;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int instrumented(int x) {
        Probes.enter(x & (METHODS - 1));
        return x * 31 + 7;
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    @Threads(1)
    public int baselineOneThread(Work work) {
        int x = work.seed;
        for (int i = 0; i < CALLS; i++) {
            x = uninstrumented(x);
        }
        return x;
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    @Threads(1)
    public int countedOneThread(Work work) {
        int x = work.seed;
        for (int i = 0; i < CALLS; i++) {
            x = instrumented(x);
        }
        return x;
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    @Threads(2)
    public int baselineTwoThreads(Work work) {
        int x = work.seed;
        for (int i = 0; i < CALLS; i++) {
            x = uninstrumented(x);
        }
        return x;
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    @Threads(2)
    public int countedTwoThreads(Work work) {
        int x = work.seed;
        for (int i = 0; i < CALLS; i++) {
            x = instrumented(x);
        }
        return x;
    }
}
