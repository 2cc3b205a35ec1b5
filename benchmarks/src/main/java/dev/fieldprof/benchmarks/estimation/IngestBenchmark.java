package dev.fieldprof.benchmarks.estimation;

import dev.fieldprof.jobs.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.ProgramIndex;
import dev.fieldprof.jobs.frequency.ReportValidation;
import dev.fieldprof.jobs.frequency.records.RawRecord;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
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
 * What the estimation job does per report, without Kafka or Flink (issue 5 item 6): decode the Avro
 * bytes, validate against the program model, add to the window's partial sum. One thread, so the
 * score is reports per second per core.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IngestBenchmark {
    private static final int REPORTS = 256;

    @Param({"2000", "10000"})
    public int methods;

    private RawRecord[] records;
    private ProgramIndex model;
    private PartialSum sum;
    private int next;

    @Setup
    public void setUp() {
        ReportFixture fixture = new ReportFixture(methods, REPORTS, 5);
        model = ProgramIndex.of(fixture.model);
        records = new RawRecord[REPORTS];
        for (int i = 0; i < REPORTS; i++) {
            records[i] = new RawRecord("reports", 0, i, i, null, fixture.reports[i]);
        }
        sum = new PartialSum(methods);
    }

    @Benchmark
    public long decodeValidateAggregate() {
        RawRecord raw = records[next++ & (REPORTS - 1)];
        ReportRecord report = ReportValidation.decode(raw);
        if (ReportValidation.check(report, model) != null) {
            throw new IllegalStateException("fixture report rejected");
        }
        return sum.add(report.counts).getReports();
    }
}
