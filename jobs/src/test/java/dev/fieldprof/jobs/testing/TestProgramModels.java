package dev.fieldprof.jobs.testing;

import dev.fieldprof.jobs.frequency.core.ProgramIndex;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PairRule;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Small program models for the job tests: methods M0..Mn-1, the given pairs, one config. */
public final class TestProgramModels {
    /** ε of the "default" privacy config of {@link #model}. */
    public static final double EPSILON = 2 * Math.log(3);

    /** k of the "default" privacy config of {@link #model}. */
    public static final int K = 4;

    private TestProgramModels() {}

    /** A model of {@code methods} methods with F(left) ≤ F(right) for every {left, right}. */
    public static ProgramModel model(String appVersion, int methods, int[][] pairs) {
        List<MethodInfo> infos = new ArrayList<>();
        for (int i = 0; i < methods; i++) {
            infos.add(new MethodInfo(i, "<demo.M" + i + ": void run()>"));
        }
        List<OrderPair> orderPairs = new ArrayList<>();
        for (int[] pair : pairs) {
            orderPairs.add(new OrderPair(pair[0], pair[1], PairRule.OTHER));
        }
        return ProgramModel.newBuilder()
                .setAppVersion(appVersion)
                .setCreatedAtMillis(Instant.EPOCH)
                .setMethods(infos)
                .setPairs(orderPairs)
                .setPrivacyConfigs(
                        List.of(
                                new PrivacyConfig(
                                        "default",
                                        EPSILON,
                                        1,
                                        K,
                                        dev.fieldprof.schemas.PrivacyMode.EPSILON_T,
                                        null)))
                .build();
    }

    /** The update the job makes of {@code model} once it decoded and checked out. */
    public static ProgramUpdate update(ProgramModel model) {
        byte[] bytes = RecordCodec.of(ProgramModel.class).encode(model);
        return new ProgramUpdate(
                model.getAppVersion(), bytes, ProgramIndex.of(model).shape().toBytes());
    }
}
