package dev.fieldprof.jobs.frequency.validation;

import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * One copy of each program model per validation shard of its app version, so that the model reaches
 * every (app version, shard) key that validates reports of that version ({@link ValidateReports} is
 * keyed on both inputs).
 */
public final class CopyProgramToShards implements FlatMapFunction<ProgramUpdate, ProgramUpdate> {
    private static final long serialVersionUID = 1L;

    private final int shards;

    /**
     * @param shards the shards of {@code Keys.AppShard}, >= 1
     */
    public CopyProgramToShards(int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be >= 1, got " + shards);
        }
        this.shards = shards;
    }

    @Override
    public void flatMap(ProgramUpdate update, Collector<ProgramUpdate> out) {
        for (int shard = 0; shard < shards; shard++) {
            // Validation reads only the shape: the model's bytes (tens of MB at a million methods)
            // stay out of the copies.
            out.collect(new ProgramUpdate(update.appVersion, null, update.shape, shard));
        }
    }
}
