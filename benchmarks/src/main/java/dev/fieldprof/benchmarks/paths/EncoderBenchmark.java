package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.tracing.PathTracer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time to code one program's whole measured run ({@link EncoderFixture}): with a {@link
 * dev.fieldprof.paths.CallSitePathEncoder} and model M3, through {@link PathProbes} into a {@link
 * PathTracer} (uniform model, as {@link PathBenchmarks} times it), and the replay alone. {@link
 * EncoderBenchmarks} divides by the run's events to print ns per event.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EncoderBenchmark {
    @Param({"commons-lang3", "gson", "guava"})
    public String program;

    private EncoderFixture fixture;
    private PathTracer tracer;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        fixture = EncoderFixture.of(program);
        tracer = fixture.newTracer();
        PathProbes.install(tracer);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        PathProbes.uninstall();
        if (PathProbes.failures() != 0 || tracer.droppedEvents() != 0) {
            throw new IllegalStateException(program + ": probe events dropped or failed");
        }
    }

    @Benchmark
    public long encoderM3() {
        return fixture.encode(fixture.m3, null);
    }

    @Benchmark
    public void tracer() {
        fixture.probe();
    }

    @Benchmark
    public int replayOnly() {
        return fixture.replayOnly();
    }
}
