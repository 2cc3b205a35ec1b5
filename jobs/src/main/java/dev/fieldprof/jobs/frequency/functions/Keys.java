package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.ReportBundle;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple3;

/** The keys of the job (named classes, so that Flink sees their types). */
public final class Keys {
    private Keys() {}

    /**
     * Who sent a report, for deduplication: its device and app version when it is numbered (one key
     * per device), otherwise its report id.
     */
    public static final class Sender implements KeySelector<ReportRecord, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(ReportRecord report) {
            return report.sequence >= 1
                    ? "device\u0000" + report.deviceId + '\u0000' + report.appVersion
                    : "report\u0000" + report.reportId;
        }
    }

    public static final class AppShard
            implements KeySelector<ReportRecord, Tuple2<String, Integer>> {
        private static final long serialVersionUID = 1L;
        private final int shards;

        public AppShard(int shards) {
            this.shards = shards;
        }

        @Override
        public Tuple2<String, Integer> getKey(ReportRecord report) {
            return Tuple2.of(report.appVersion, report.shard(shards));
        }
    }

    /** (app version, shard) of a bundle of reports: its reports' {@link AppShard}. */
    public static final class BundleShard
            implements KeySelector<ReportBundle, Tuple2<String, Integer>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple2<String, Integer> getKey(ReportBundle bundle) {
            return Tuple2.of(bundle.appVersion, bundle.shard);
        }
    }

    /** (app version, shard) of a program model's copy: the models side of validation. */
    public static final class ProgramShard
            implements KeySelector<ProgramUpdate, Tuple2<String, Integer>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple2<String, Integer> getKey(ProgramUpdate update) {
            return Tuple2.of(update.appVersion, update.shard);
        }
    }

    /** (app version, config, shard): the parallel window sums. */
    public static final class AppConfig
            implements KeySelector<WindowSum, Tuple3<String, String, Long>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple3<String, String, Long> getKey(WindowSum sum) {
            return Tuple3.of(sum.appVersion, sum.configId, sum.generation);
        }
    }
}
