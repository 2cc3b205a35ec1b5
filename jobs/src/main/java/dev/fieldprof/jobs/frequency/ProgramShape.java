package dev.fieldprof.jobs.frequency;

import dev.fieldprof.client.privacy.PrivacyParameters;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * What validating a report needs of its program model, and no more: |V| and the privacy
 * configurations, a few hundred bytes however large the model (its CFGs and pairs are for the
 * estimate). Its {@link #generation()} changes exactly when |V| or a configuration's ε, t or k
 * changes: reports of two generations must never be summed together (the estimator's a and k
 * differ, or the vectors do), so window sums and cumulative estimates are kept per generation.
 * Immutable.
 */
public final class ProgramShape implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String appVersion;
    private final int methodCount;
    private final TreeMap<String, PrivacyParameters> configs;
    private final long generation;

    public ProgramShape(
            String appVersion, int methodCount, Map<String, PrivacyParameters> configs) {
        this.appVersion = appVersion;
        this.methodCount = methodCount;
        this.configs = new TreeMap<>(configs);
        this.generation = generationOf(methodCount, this.configs);
    }

    /**
     * The shape of an encoded program model that decoded and checked out before ({@code
     * DecodePrograms}): reads only the methods' count and the privacy configurations.
     */
    public static ProgramShape decode(byte[] modelBytes) {
        dev.fieldprof.schemas.ProgramModel model = ProgramIndex.CODEC.decode(modelBytes);
        Map<String, PrivacyParameters> configs = new TreeMap<>();
        for (dev.fieldprof.schemas.PrivacyConfig config : model.getPrivacyConfigs()) {
            configs.put(config.getConfigId(), PrivacyParameters.of(config));
        }
        return new ProgramShape(model.getAppVersion(), model.getMethods().size(), configs);
    }

    public String appVersion() {
        return appVersion;
    }

    public int methodCount() {
        return methodCount;
    }

    /** The parameters of {@code configId}, or null when the model has no such configuration. */
    public PrivacyParameters config(String configId) {
        return configs.get(configId);
    }

    /**
     * A 64-bit fingerprint of |V| and every configuration's id, ε, t and k (FNV-1a over their
     * text): equal for two publications of a model that differ only in pairs, CFGs or analysis
     * details, different when any parameter the estimator depends on changed.
     */
    public long generation() {
        return generation;
    }

    /** The configuration ids, sorted. */
    public java.util.List<String> configIds() {
        return java.util.List.copyOf(configs.keySet());
    }

    /** One line for dead letters and logs: |V| and the configurations. */
    public String describe() {
        StringBuilder text = new StringBuilder("|V| = ").append(methodCount);
        configs.forEach(
                (id, p) ->
                        text.append(", ")
                                .append(id)
                                .append(" (ε = ")
                                .append(p.epsilon())
                                .append(", t = ")
                                .append(p.t())
                                .append(", k = ")
                                .append(p.k())
                                .append(')'));
        return text.toString();
    }

    private static long generationOf(int methodCount, TreeMap<String, PrivacyParameters> configs) {
        StringBuilder text = new StringBuilder().append(methodCount);
        configs.forEach(
                (id, p) ->
                        text.append('|')
                                .append(id)
                                .append(':')
                                .append(Double.doubleToLongBits(p.epsilon()))
                                .append(':')
                                .append(p.t())
                                .append(':')
                                .append(p.k()));
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash ^= text.charAt(i);
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
