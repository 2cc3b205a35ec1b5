package dev.fieldprof.jobs.io;

import java.nio.file.Path;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Checkpointing of a fieldprof job: at the options' interval, into durable storage. Without a
 * directory Flink keeps checkpoints in the JobManager's memory, capped at 5 MB per state handle: a
 * window of path reports or the deduplication state of many devices fails every checkpoint there
 * and the job restarts in a loop. So the directory is the job's {@code --checkpoint-dir}, else the
 * cluster's configured one, else a directory under the machine's temporary directory.
 */
public final class Checkpoints {
    private Checkpoints() {}

    /**
     * Enables checkpointing on {@code env} as the options say (nothing when the interval is zero).
     *
     * @param job names the default directory, {@code <tmp>/fieldprof-checkpoints/<job>}
     */
    public static void configure(
            StreamExecutionEnvironment env, KafkaJobOptions options, String job) {
        if (options.checkpointInterval().isZero()) {
            return;
        }
        env.enableCheckpointing(options.checkpointInterval().toMillis());
        String directory = directory(options.checkpointDir(), env, job);
        if (directory != null) {
            Configuration configuration = new Configuration();
            configuration.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, directory);
            env.configure(configuration);
        }
    }

    /** The directory to set, or null to keep the one the cluster configured. */
    static String directory(String option, StreamExecutionEnvironment env, String job) {
        if (!option.isEmpty()) {
            return option;
        }
        if (env.getConfiguration()
                .getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY)
                .isPresent()) {
            return null;
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "fieldprof-checkpoints", job)
                .toUri()
                .toString();
    }
}
