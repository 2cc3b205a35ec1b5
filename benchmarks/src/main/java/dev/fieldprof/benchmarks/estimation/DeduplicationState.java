package dev.fieldprof.benchmarks.estimation;

import dev.fieldprof.jobs.frequency.functions.DeduplicateReports;
import dev.fieldprof.jobs.frequency.functions.Keys;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import java.time.Duration;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.storage.JobManagerCheckpointStorage;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/**
 * The checkpointed state of the frequency job's deduplication when D devices each send R reports:
 * numbered reports (one sequence window per device) against unnumbered ones (one remembered report
 * id per report, the only way before FrequencyReport v2), on the real operator with Flink's heap
 * state backend, measured as the size of a full checkpoint.
 *
 * <pre>
 * java -Xmx6g -cp benchmarks/target/classes:$(cat benchmarks/target/cp.txt) \
 *     dev.fieldprof.benchmarks.estimation.DeduplicationState [DEVICES] [REPORTS,...]
 * </pre>
 */
public final class DeduplicationState {
    private DeduplicationState() {}

    public static void main(String[] args) throws Exception {
        int devices = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        String[] rounds = (args.length > 1 ? args[1] : "1,3").split(",");
        System.out.printf(
                "== Deduplication state of the frequency job, %,d devices (heap backend, full"
                        + " checkpoint)%n",
                devices);
        System.out.printf(
                "  %-34s %8s %14s %16s %12s%n",
                "reports", "per dev", "keys", "checkpoint MB", "bytes/dev");
        for (String round : rounds) {
            int reports = Integer.parseInt(round.trim());
            for (boolean numbered : new boolean[] {true, false}) {
                long bytes = checkpointBytes(devices, reports, numbered);
                System.out.printf(
                        "  %-34s %8d %,14d %16.1f %12.1f%n",
                        numbered
                                ? "numbered (device sequence, v2)"
                                : "unnumbered (report id + TTL, v1)",
                        reports,
                        numbered ? (long) devices : (long) devices * reports,
                        bytes / 1e6,
                        bytes / (double) devices);
            }
        }
    }

    private static long checkpointBytes(int devices, int reportsPerDevice, boolean numbered)
            throws Exception {
        RawRecord raw = new RawRecord("reports", 0, 0, 0, null, new byte[] {1});
        int[] counts = {1};
        try (var harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new DeduplicateReports(Duration.ofHours(24))),
                        new Keys.Sender(),
                        Types.STRING)) {
            // In memory, without the 5 MB cap of the default: the size is what is measured.
            harness.setCheckpointStorage(new JobManagerCheckpointStorage(Integer.MAX_VALUE));
            harness.open();
            for (int r = 1; r <= reportsPerDevice; r++) {
                for (int d = 0; d < devices; d++) {
                    String device = "device-" + d;
                    ReportRecord report =
                            new ReportRecord(
                                    java.util.UUID.randomUUID().toString(),
                                    device,
                                    "app:1.0",
                                    "default",
                                    1,
                                    counts,
                                    raw);
                    report.sequence = numbered ? r : 0;
                    harness.processElement(report, 0);
                }
                harness.getOutput().clear(); // the passed reports are not what is measured
            }
            OperatorSubtaskState snapshot = harness.snapshot(1, 1);
            return snapshot.getStateSize();
        }
    }
}
