package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.PrivacyMode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * What validating a report needs of its program model, and no more: |V| and the privacy
 * configurations, a few hundred bytes however large the model (its CFGs and pairs are for the
 * estimate). Its {@link #generation()} changes exactly when |V| or a configuration's ε, t, k or
 * shuffle terms change: reports of two generations must never be summed together (the estimator's a
 * and k differ, or the vectors do), so window sums and cumulative estimates are kept per
 * generation. Immutable.
 */
public final class ProgramShape implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String appVersion;
    private final int methodCount;
    private final TreeMap<String, PrivacyParameters> configs;

    /** The configurations of the shuffled mode, with their terms; absent: local-only. */
    private final TreeMap<String, ShuffleTerms> shuffled;

    private final long generation;

    /** The user-level configurations' oracles (ω depends on |V| and ε), built on first use. */
    private transient Map<String, SubsetSelection> oracles;

    /** A shape whose configurations are all local-only. */
    public ProgramShape(
            String appVersion, int methodCount, Map<String, PrivacyParameters> configs) {
        this(appVersion, methodCount, configs, Map.of());
    }

    /**
     * @param shuffled the terms of the configurations of the shuffled mode, by config id (a subset
     *     of {@code configs}' ids)
     */
    public ProgramShape(
            String appVersion,
            int methodCount,
            Map<String, PrivacyParameters> configs,
            Map<String, ShuffleTerms> shuffled) {
        this.appVersion = appVersion;
        this.methodCount = methodCount;
        this.configs = new TreeMap<>(configs);
        this.shuffled = new TreeMap<>(shuffled);
        this.generation = generationOf(methodCount, this.configs, this.shuffled);
    }

    /**
     * The subset-selection oracle of a user-level configuration, or null (ε-t configurations, or
     * |V| < 2).
     */
    public synchronized SubsetSelection oracle(String configId) {
        if (oracles == null) {
            Map<String, SubsetSelection> built = new TreeMap<>();
            configs.forEach(
                    (id, p) -> {
                        if (p.mode() == PrivacyMode.USER_LEVEL && methodCount >= 2) {
                            built.put(id, new SubsetSelection(methodCount, p.epsilon()));
                        }
                    });
            oracles = built;
        }
        return oracles.get(configId);
    }

    /**
     * The shape in a few hundred bytes ({@link #fromBytes}): what travels with a program update to
     * validation, which then never decodes the model (megabytes of CFGs) itself.
     */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(appVersion);
            write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The shape {@link #toBytes} wrote. */
    public static ProgramShape fromBytes(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            return read(in.readUTF(), in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes |V| and the configurations (not the app version). A shape without shuffled
     * configurations is written as before the shuffled mode existed; one with them writes its
     * configuration count as {@code -1 - count} and each configuration's shuffle terms after it, so
     * that a reader tells the two apart.
     */
    public void write(DataOutput out) throws IOException {
        out.writeInt(methodCount);
        boolean withTerms = !shuffled.isEmpty();
        out.writeInt(withTerms ? -1 - configs.size() : configs.size());
        for (Map.Entry<String, PrivacyParameters> config : configs.entrySet()) {
            out.writeUTF(config.getKey());
            out.writeDouble(config.getValue().epsilon());
            // A user-level configuration (t = 1) is written with t = -1, so shapes written before
            // the mode existed (t >= 1 always) read unchanged.
            out.writeInt(
                    config.getValue().mode() == PrivacyMode.USER_LEVEL
                            ? -1
                            : config.getValue().t());
            out.writeInt(config.getValue().k());
            if (withTerms) {
                ShuffleTerms terms = shuffled.get(config.getKey());
                out.writeInt(terms == null ? 0 : terms.minBatchSize());
                out.writeDouble(terms == null ? 0 : terms.delta());
            }
        }
    }

    /** Reads what {@link #write} wrote, for {@code appVersion}. */
    public static ProgramShape read(String appVersion, DataInput in) throws IOException {
        int methods = in.readInt();
        int written = in.readInt();
        boolean withTerms = written < 0;
        int count = withTerms ? -1 - written : written;
        Map<String, PrivacyParameters> parameters = new TreeMap<>();
        Map<String, ShuffleTerms> shuffled = new TreeMap<>();
        for (int c = 0; c < count; c++) {
            String id = in.readUTF();
            double epsilon = in.readDouble();
            int t = in.readInt();
            int k = in.readInt();
            if (withTerms) {
                int minBatchSize = in.readInt();
                double delta = in.readDouble();
                if (minBatchSize > 0) {
                    shuffled.put(id, new ShuffleTerms(minBatchSize, delta));
                }
            }
            parameters.put(
                    id,
                    t == -1
                            ? new PrivacyParameters(PrivacyMode.USER_LEVEL, epsilon, 1, k)
                            : new PrivacyParameters(epsilon, t, k));
        }
        return new ProgramShape(appVersion, methods, parameters, shuffled);
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
     * The terms of {@code configId} when it is a configuration of the shuffled mode (its reports
     * count only from batches of at least the minimum size); null for a local-only or unknown one.
     */
    public ShuffleTerms shuffleTerms(String configId) {
        return shuffled.get(configId);
    }

    /**
     * A 64-bit fingerprint of |V| and every configuration's id, ε, t and k (FNV-1a over their
     * text): equal for two publications of a model that differ only in pairs, CFGs or analysis
     * details, different when any parameter the estimator depends on changed.
     */
    public long generation() {
        return generation;
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
                                .append(p.mode() == PrivacyMode.USER_LEVEL ? ", user-level" : "")
                                .append(
                                        shuffled.containsKey(id)
                                                ? ", shuffled, batches >= "
                                                        + shuffled.get(id).minBatchSize()
                                                : "")
                                .append(')'));
        return text.toString();
    }

    private static long generationOf(
            int methodCount,
            TreeMap<String, PrivacyParameters> configs,
            TreeMap<String, ShuffleTerms> shuffled) {
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
                                .append(p.k())
                                // Absent for ε-t, so earlier generations keep their values.
                                .append(p.mode() == PrivacyMode.USER_LEVEL ? ":U" : "")
                                // Absent for local-only configurations, likewise: reports held
                                // to other batch terms are never summed together.
                                .append(
                                        shuffled.containsKey(id)
                                                ? ":S"
                                                        + shuffled.get(id).minBatchSize()
                                                        + ':'
                                                        + Double.doubleToLongBits(
                                                                shuffled.get(id).delta())
                                                : ""));
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash ^= text.charAt(i);
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
