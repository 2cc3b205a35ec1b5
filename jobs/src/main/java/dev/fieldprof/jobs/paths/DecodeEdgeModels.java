package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EdgeModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Reads the edge models on the model topic, this job's own included: they come back through the
 * topic as they reach devices, and the shards decode reports with them. A tombstone gives nothing;
 * a record that does not decode is dead-lettered.
 */
public final class DecodeEdgeModels extends ProcessFunction<RawRecord, PathSideInput> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<EdgeModel> CODEC = RecordCodec.of(EdgeModel.class);

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<PathSideInput> out) {
        if (raw.value == null) {
            return;
        }
        try {
            EdgeModel model = CODEC.decode(raw.value);
            out.collect(PathSideInput.model(model.getAppVersion().toString(), raw.value));
        } catch (RecordDecodingException e) {
            ctx.output(
                    PathDeadLetters.TAG,
                    PathDeadLetters.of(raw, DeadLetterReason.UNDECODABLE, e.getMessage()));
        }
    }
}
