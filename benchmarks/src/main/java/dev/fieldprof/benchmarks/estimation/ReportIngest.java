package dev.fieldprof.benchmarks.estimation;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.core.ProgramIndex;
import dev.fieldprof.jobs.frequency.core.ReportValidation;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;

/**
 * The estimation job's per-report work without Kafka or Flink — decode the Avro bytes, validate
 * against the program model, add to the window's partial sum — over a ring of encoded fixture
 * reports, shared by the JMH benchmark and the CPU-time measurement. Not thread-safe.
 */
final class ReportIngest {
    private final RawRecord[] records;
    private final ProgramIndex model;
    private final PartialSum sum;
    private final boolean dense;
    private final int methods;
    private int next;

    /**
     * @param methods |V|
     * @param reports fixture reports in the ring, a power of two
     * @param seed seed of the traces and of the randomizer
     */
    ReportIngest(int methods, int reports, long seed) {
        this(new ReportFixture(methods, reports, seed), methods, false);
    }

    /**
     * Over the reports of {@code fixture} (a power of two of them).
     *
     * @param dense add a user-level report as a dense 0/1 vector of |V| ints, as the job did before
     *     it summed the subset's ids (the baseline)
     */
    ReportIngest(ReportFixture fixture, int methods, boolean dense) {
        int reports = fixture.reports.length;
        if (Integer.bitCount(reports) != 1) {
            throw new IllegalArgumentException("reports must be a power of two, got " + reports);
        }
        this.dense = dense;
        this.methods = methods;
        model = ProgramIndex.of(fixture.model);
        records = new RawRecord[reports];
        for (int i = 0; i < reports; i++) {
            records[i] = new RawRecord("reports", 0, i, i, null, fixture.reports[i]);
        }
        sum = new PartialSum(methods);
    }

    /** Ingests the next report of the ring; returns the reports summed so far. */
    long ingestNext() {
        RawRecord raw = records[next++ & (records.length - 1)];
        // As the job reads it: every byte checked where the report enters, its ids read again
        // where it is validated (only the envelope crosses the network in between).
        ReportRecord report = ReportValidation.decodeEnvelope(raw);
        ReportValidation.readArrays(report);
        if (ReportValidation.check(report, model.shape()) != null) {
            throw new IllegalStateException("fixture report rejected");
        }
        if (report.subset.length == 0) {
            return sum.add(report.counts).getReports();
        }
        return dense
                ? sum.add(ReportValidation.summand(report, methods)).getReports()
                : sum.addSubset(report.subset, methods).getReports();
    }

    PartialSum sum() {
        return sum;
    }

    RawRecord record(int i) {
        return records[i];
    }
}
