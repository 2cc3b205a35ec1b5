package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.core.ProgramIndex;
import dev.fieldprof.jobs.frequency.core.StoredModels;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordDecodingException;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Decodes and checks program models before they are broadcast: a model that does not decode, or
 * whose pairs name unknown methods, is dead-lettered instead of breaking every estimate after it. A
 * good one goes on compressed ({@link StoredModels}), as the estimators keep it.
 */
public final class DecodePrograms extends ProcessFunction<RawRecord, ProgramUpdate> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<ProgramUpdate> out) {
        if (raw.value == null) {
            // A tombstone on the compacted topic: nothing to broadcast, nothing wrong.
            return;
        }
        ProgramIndex index;
        try {
            index = ProgramIndex.decode(raw.value);
        } catch (RecordDecodingException e) {
            ctx.output(
                    DeadLetters.TAG,
                    DeadLetters.of(raw, DeadLetterReason.UNDECODABLE, e.getMessage()));
            return;
        } catch (IllegalArgumentException e) {
            ctx.output(
                    DeadLetters.TAG,
                    DeadLetters.of(
                            raw,
                            DeadLetterReason.INVALID,
                            "invalid program model: " + e.getMessage()));
            return;
        }
        out.collect(
                new ProgramUpdate(
                        index.appVersion(),
                        StoredModels.compress(raw.value),
                        index.shape().toBytes()));
    }
}
