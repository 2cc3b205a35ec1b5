package dev.fieldprof.jobs.io;

import java.util.List;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Where a job's keyed state lives, as its {@code --state-backend} option says: the cluster's own
 * configuration (deploy/ configures RocksDB with incremental checkpoints), the JVM heap, or RocksDB
 * on local disk with incremental checkpoints, for state larger than the heap (one entry per device
 * of millions, windows of many app versions).
 */
public final class StateBackends {
    /** Leaves the state backend to the cluster's configuration. */
    public static final String CLUSTER = "cluster";

    public static final String HASHMAP = "hashmap";
    public static final String ROCKSDB = "rocksdb";

    /** The option's values. */
    public static final List<String> NAMES = List.of(CLUSTER, HASHMAP, ROCKSDB);

    private StateBackends() {}

    /** Configures {@code env} for {@code name} (one of {@link #NAMES}). */
    public static void configure(StreamExecutionEnvironment env, String name) {
        if (CLUSTER.equals(name)) {
            return;
        }
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException(
                    "state backend must be one of " + NAMES + ", got '" + name + "'");
        }
        Configuration configuration = new Configuration();
        configuration.set(StateBackendOptions.STATE_BACKEND, name);
        if (ROCKSDB.equals(name)) {
            configuration.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        }
        env.configure(configuration);
    }
}
