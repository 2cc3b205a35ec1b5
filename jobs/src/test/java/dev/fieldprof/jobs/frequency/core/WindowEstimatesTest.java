package dev.fieldprof.jobs.frequency.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The EstimateWindow of one sum carries a standard error per method, through its encoding. */
class WindowEstimatesTest {
    private static final RecordCodec<EstimateWindow> CODEC = RecordCodec.of(EstimateWindow.class);

    private static ProgramIndex model(PrivacyConfig config) {
        List<MethodInfo> methods = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            methods.add(new MethodInfo(i, "<demo.M" + i + ": void run()>"));
        }
        return ProgramIndex.of(
                ProgramModel.newBuilder()
                        .setAppVersion("app:1")
                        .setCreatedAtMillis(Instant.EPOCH)
                        .setMethods(methods)
                        .setPairs(List.of())
                        .setPrivacyConfigs(List.of(config))
                        .build());
    }

    /**
     * User-level, |V| = 4, ε = ln 3, n = 12: each method's error is the plug-in at S(v)/n clamped
     * into [q, p], so S = 0 gets the share-0 error (the common one) and S = 12 the share-1 error.
     */
    @Test
    void userLevelWindowsCarryThePlugInErrorOfEachMethod() {
        ProgramIndex model =
                model(new PrivacyConfig("user", Math.log(3), 1, 1, PrivacyMode.USER_LEVEL, null));
        EstimateWindow window =
                CODEC.decode(
                        CODEC.encode(
                                new WindowEstimates(0.5, 2)
                                        .estimate(
                                                model,
                                                "user",
                                                0,
                                                60_000,
                                                new PartialSum(12, new long[] {0, 3, 12, 6}),
                                                false)));
        SubsetSelection oracle = new SubsetSelection(4, Math.log(3));
        assertThat(window.getStandardError())
                .isCloseTo(oracle.standardErrorAtZero(12), within(1e-15));
        assertThat(window.getStandardErrors())
                .containsExactly(
                        FrequencyEstimator.plugInStandardError(oracle, 0, 12),
                        FrequencyEstimator.plugInStandardError(oracle, 3, 12),
                        FrequencyEstimator.plugInStandardError(oracle, 12, 12),
                        FrequencyEstimator.plugInStandardError(oracle, 6, 12));
        assertThat(window.getStandardErrors().get(0)).isEqualTo(window.getStandardError());
        assertThat(window.getStandardErrors().get(2))
                .isCloseTo(oracle.standardError(1, 12), within(1e-15))
                .isGreaterThan(window.getStandardError());
    }

    /** ε-t, a = 3, k = 4, n = 2: every method's error is √(a/(n·k))/(a − 1) = √(3/8)/2. */
    @Test
    void epsilonTWindowsCarryTheCommonErrorForEveryMethod() {
        ProgramIndex model =
                model(new PrivacyConfig("et", 2 * Math.log(3), 1, 4, PrivacyMode.EPSILON_T, null));
        EstimateWindow window =
                new WindowEstimates(0.5, 2)
                        .estimate(
                                model,
                                "et",
                                0,
                                60_000,
                                new PartialSum(2, new long[] {5, 3, 4, 0}),
                                false);
        assertThat(window.getStandardError()).isCloseTo(Math.sqrt(3.0 / 8) / 2, within(1e-15));
        assertThat(window.getStandardErrors())
                .hasSize(4)
                .allSatisfy(se -> assertThat(se).isEqualTo(window.getStandardError()));
    }
}
