package dev.fieldprof.benchmarks.estimation;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the estimation job does per report, without Kafka or Flink: decode the Avro bytes, validate
 * against the program model, add to the window's partial sum. One thread, so the score is reports
 * per second per core.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IngestBenchmark {
    @Param({"2000", "10000"})
    public int methods;

    private ReportIngest ingest;

    @Setup
    public void setUp() {
        ingest = new ReportIngest(methods, 256, 5);
    }

    @Benchmark
    public long decodeValidateAggregate() {
        return ingest.ingestNext();
    }
}
