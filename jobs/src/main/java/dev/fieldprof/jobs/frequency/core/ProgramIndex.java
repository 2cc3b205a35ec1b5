package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.estimation.ConstraintProjection;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the job needs of one program model: |V|, the signatures, the privacy configurations and the
 * preprocessed constraint projection (built once per model, docs/architecture.md, "The constraint
 * projection, fast"). Immutable and thread-safe.
 */
public final class ProgramIndex {
    static final RecordCodec<ProgramModel> CODEC = RecordCodec.of(ProgramModel.class);

    private final String appVersion;
    private final String[] signatures;
    private final Map<String, PrivacyParameters> configs;
    private final ConstraintProjection projection;
    private final ProgramShape shape;

    private ProgramIndex(ProgramModel model) {
        this.appVersion = model.getAppVersion();
        List<MethodInfo> methods = model.getMethods();
        this.signatures = new String[methods.size()];
        for (int i = 0; i < signatures.length; i++) {
            MethodInfo method = methods.get(i);
            if (method.getId() != i) {
                throw new IllegalArgumentException(
                        "method at index " + i + " has id " + method.getId() + ", expected " + i);
            }
            signatures[i] = method.getSignature();
        }
        this.configs = new HashMap<>();
        Map<String, ShuffleTerms> shuffled = new HashMap<>();
        for (PrivacyConfig config : model.getPrivacyConfigs()) {
            configs.put(config.getConfigId(), PrivacyParameters.of(config));
            ShuffleTerms terms = ShuffleTerms.of(config.getShuffler());
            if (terms != null) {
                shuffled.put(config.getConfigId(), terms);
            }
        }
        this.projection = new ConstraintProjection(ConstraintGraph.of(model));
        this.shape = new ProgramShape(appVersion, signatures.length, configs, shuffled);
    }

    /**
     * Checks and indexes a model.
     *
     * @throws IllegalArgumentException when the model has no methods, ids out of order, a pair
     *     naming an unknown method, or an invalid privacy configuration
     */
    public static ProgramIndex of(ProgramModel model) {
        return new ProgramIndex(model);
    }

    /** Decodes and indexes encoded model bytes. */
    public static ProgramIndex decode(byte[] bytes) {
        return of(CODEC.decode(bytes));
    }

    public String appVersion() {
        return appVersion;
    }

    public int methodCount() {
        return signatures.length;
    }

    public String signature(int method) {
        return signatures[method];
    }

    /** The parameters of a configuration, or null when the model has no such configuration. */
    public PrivacyParameters config(String configId) {
        return configs.get(configId);
    }

    /** |V| and the privacy configurations, with their generation. */
    public ProgramShape shape() {
        return shape;
    }

    public ConstraintProjection projection() {
        return projection;
    }
}
