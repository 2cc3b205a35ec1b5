package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.paths.ProgramModelBranches;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Turns program model records of {@code fieldprof.programs} into the branch tables of their app
 * versions ({@link ProgramModelBranches}). A record that does not decode, or whose CFGs are
 * inconsistent, is dead-lettered; a model without CFGs (schema v1) and a tombstone give nothing.
 */
public final class DecodeProgramBranches extends ProcessFunction<RawRecord, PathSideInput> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<ProgramModel> CODEC = RecordCodec.of(ProgramModel.class);

    private static String planText(ProgramModel model) {
        ProbePlanText plan = ProbePlanText.of(model);
        return plan == null ? null : plan.toText();
    }

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<PathSideInput> out) {
        if (raw.value == null) {
            return;
        }
        ProgramModel model;
        try {
            model = CODEC.decode(raw.value);
        } catch (RecordDecodingException e) {
            ctx.output(
                    PathDeadLetters.TAG,
                    PathDeadLetters.of(raw, DeadLetterReason.UNDECODABLE, e.getMessage()));
            return;
        }
        if (!ProgramModelBranches.hasCfgs(model)) {
            return;
        }
        try {
            out.collect(
                    PathSideInput.program(
                            model.getAppVersion().toString(),
                            BranchTableText.toText(ProgramModelBranches.table(model)),
                            planText(model)));
        } catch (IllegalArgumentException e) {
            ctx.output(
                    PathDeadLetters.TAG,
                    PathDeadLetters.of(
                            raw,
                            DeadLetterReason.INVALID,
                            "program model "
                                    + model.getAppVersion()
                                    + " has no usable CFGs: "
                                    + e.getMessage()));
        }
    }
}
