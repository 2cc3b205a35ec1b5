package dev.fieldprof.bytecode.model;

import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds, writes and reads ProgramModel files (the RecordCodec bytes of one ProgramModel). */
public final class ProgramModels {

    /** ln 9: the default privacy loss ({@link dev.fieldprof.schemas.PrivacyDefaults#EPSILON}). */
    public static final double DEFAULT_EPSILON = dev.fieldprof.schemas.PrivacyDefaults.EPSILON;

    private ProgramModels() {}

    /**
     * The privacy configuration with defaults filled in: k defaults to 5·|V| as in frequency
     * profiling (docs/references.md).
     */
    public static PrivacyConfig privacyConfig(
            String configId, double epsilon, int t, Integer k, int methodCount) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be > 0 and finite, was " + epsilon);
        }
        if (t < 1) {
            throw new IllegalArgumentException("t must be >= 1, was " + t);
        }
        int traceLength = k == null ? Math.max(1, 5 * methodCount) : k;
        if (traceLength < 1) {
            throw new IllegalArgumentException("k must be >= 1, was " + traceLength);
        }
        return PrivacyConfig.newBuilder()
                .setConfigId(configId)
                .setEpsilon(epsilon)
                .setT(t)
                .setK(traceLength)
                .build();
    }

    /**
     * The model with its privacy configurations in the user-level mode: each report protects the
     * device's whole epoch at the configuration's epsilon, one sampled event per report (k = t =
     * 1).
     */
    public static ProgramModel userLevel(ProgramModel model) {
        List<PrivacyConfig> configs = new ArrayList<>();
        for (PrivacyConfig config : model.getPrivacyConfigs()) {
            configs.add(
                    PrivacyConfig.newBuilder(config)
                            .setMode(dev.fieldprof.schemas.PrivacyMode.USER_LEVEL)
                            .setK(1)
                            .setT(1)
                            .build());
        }
        return ProgramModel.newBuilder(model).setPrivacyConfigs(configs).build();
    }

    /**
     * The model with its privacy configurations in the shuffled mode: reported as in the user-level
     * mode at the configuration's epsilon (its epsilon0), sealed to the analyst and released by a
     * shuffler in batches of at least {@code minBatchSize}, whose estimates state their central
     * guarantee at {@code delta}.
     *
     * @param minBatchSize at least 2: the fewest reports in a batch the analyst may open
     * @param delta in (0, 1): the delta of the central (epsilon, delta) the estimates state
     */
    public static ProgramModel shuffled(ProgramModel model, int minBatchSize, double delta) {
        if (minBatchSize < 2) {
            throw new IllegalArgumentException(
                    "minBatchSize must be at least 2, was " + minBatchSize);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), was " + delta);
        }
        List<PrivacyConfig> configs = new ArrayList<>();
        for (PrivacyConfig config : userLevel(model).getPrivacyConfigs()) {
            configs.add(
                    PrivacyConfig.newBuilder(config)
                            .setShuffler(
                                    new dev.fieldprof.schemas.ShufflerTerms(minBatchSize, delta))
                            .build());
        }
        return ProgramModel.newBuilder(model).setPrivacyConfigs(configs).build();
    }

    /** A model whose method ids are the indices of the sorted signatures. */
    public static ProgramModel build(
            String appVersion,
            Instant createdAt,
            List<String> sortedSignatures,
            List<OrderPair> pairs,
            PrivacyConfig privacyConfig,
            Map<String, Double> stats) {
        List<MethodInfo> methods = new ArrayList<>(sortedSignatures.size());
        String previous = null;
        for (int i = 0; i < sortedSignatures.size(); i++) {
            String signature = sortedSignatures.get(i);
            if (previous != null && previous.compareTo(signature) >= 0) {
                throw new IllegalArgumentException(
                        "signatures must be sorted and distinct: " + previous + ", " + signature);
            }
            methods.add(MethodInfo.newBuilder().setId(i).setSignature(signature).build());
            previous = signature;
        }
        return ProgramModel.newBuilder()
                .setAppVersion(appVersion)
                .setCreatedAtMillis(createdAt)
                .setMethods(methods)
                .setPairs(new ArrayList<>(pairs))
                .setPrivacyConfigs(new ArrayList<>(List.of(privacyConfig)))
                .setAnalysisStats(new TreeMap<>(stats))
                .build();
    }

    public static void write(ProgramModel model, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.write(file, RecordCodec.of(ProgramModel.class).encode(model));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write model " + file + ": " + e.getMessage(), e);
        }
    }

    /** Model files larger than this are refused before they are read. */
    static final long MAX_FILE_BYTES = 1L << 30;

    /**
     * Reads a model file and checks it ({@link ProgramModelCheck}).
     *
     * @throws IllegalArgumentException with a one-line message naming the file and the problem:
     *     missing, unreadable, too large, undecodable (including a length field that promises more
     *     than any file holds) or inconsistent
     */
    public static ProgramModel read(Path file) {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(
                        "not a fieldprof program model: "
                                + file
                                + " (larger than "
                                + MAX_FILE_BYTES
                                + " bytes)");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read model file " + file + ": " + e, e);
        }
        ProgramModel model;
        try {
            model = RecordCodec.of(ProgramModel.class).decode(bytes);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "not a fieldprof program model: " + file + " (" + e.getMessage() + ")", e);
        } catch (OutOfMemoryError e) {
            // One array sized from a corrupt length field: the allocation failed, nothing is held.
            throw new IllegalArgumentException(
                    "not a fieldprof program model: "
                            + file
                            + " (a length field asks for more memory than there is)");
        }
        try {
            ProgramModelCheck.check(model);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "malformed program model " + file + ": " + e.getMessage(), e);
        }
        return model;
    }
}
