package dev.fieldprof.jobs.shuffle;

import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;

/** The keys of the shuffler (named classes, so that Flink sees their types). */
public final class ShufflerKeys {
    private ShufflerKeys() {}

    /** (device id, app version): one sequence window per device and app version. */
    public static final class Sender implements KeySelector<SealedRecord, Tuple2<String, String>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple2<String, String> getKey(SealedRecord report) {
            return Tuple2.of(report.deviceId, report.appVersion);
        }
    }

    /** (app version, config): the group a batch is drawn from. */
    public static final class Group implements KeySelector<SealedRecord, Tuple2<String, String>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple2<String, String> getKey(SealedRecord report) {
            return Tuple2.of(report.appVersion, report.configId);
        }
    }
}
