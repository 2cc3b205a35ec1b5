package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.RecordCodec;
import java.util.List;

/**
 * Decoding and the checks a report must pass against its program model (docs/architecture.md, "The
 * privacy contract"): Flink-free, so that the job's functions and the benchmarks share them.
 * Thread-safe.
 */
public final class ReportValidation {
    private static final RecordCodec<FrequencyReport> CODEC = RecordCodec.of(FrequencyReport.class);

    /** Why a report failed, or null from {@link #check} when it passed. */
    public record Failure(DeadLetterReason reason, String message) {}

    private ReportValidation() {}

    /**
     * Decodes a raw report record.
     *
     * @throws dev.fieldprof.schemas.RecordDecodingException when the bytes are no FrequencyReport
     */
    public static ReportRecord decode(RawRecord raw) {
        ReportRecord fast = FastReportDecoder.decode(raw);
        if (fast != null) {
            return fast;
        }
        FrequencyReport report = CODEC.decode(raw.value);
        List<Integer> counts = report.getCounts();
        int[] vector = new int[counts.size()];
        for (int v = 0; v < vector.length; v++) {
            vector[v] = counts.get(v);
        }
        ReportRecord record =
                new ReportRecord(
                        report.getReportId(),
                        report.getDeviceId(),
                        report.getAppVersion(),
                        report.getConfigId(),
                        report.getK(),
                        vector,
                        raw);
        record.sequence = report.getSequence();
        record.epsilon = report.getEpsilon();
        record.t = report.getT();
        List<Integer> subset = report.getSubset();
        record.subset = new int[subset.size()];
        for (int i = 0; i < record.subset.length; i++) {
            record.subset[i] = subset.get(i);
        }
        return record;
    }

    /**
     * Decodes a raw report record, checking every byte as {@link #decode} does, but leaves a
     * current-schema report's counts and subset in {@code raw} (both null) until {@link
     * #readArrays}: what crosses the network before validation is then the header and the bytes,
     * not the bytes and their ids again. A report of an older schema is decoded whole.
     *
     * @throws dev.fieldprof.schemas.RecordDecodingException when the bytes are no FrequencyReport
     */
    public static ReportRecord decodeEnvelope(RawRecord raw) {
        ReportRecord fast = FastReportDecoder.decodeEnvelope(raw);
        return fast != null ? fast : decode(raw);
    }

    /**
     * Reads the counts and subset of a report from {@link #decodeEnvelope} out of its raw bytes; a
     * report that holds them already is left as it is.
     *
     * @throws dev.fieldprof.schemas.RecordDecodingException when the bytes do not decode (they did
     *     when the envelope was read, so only bytes changed in between would)
     */
    public static void readArrays(ReportRecord report) {
        if (report.counts != null) {
            return;
        }
        ReportRecord whole = decode(report.raw);
        report.counts = whole.counts;
        report.subset = whole.subset;
    }

    /** The first check {@code report} fails against {@code model}, or null when it passes. */
    public static Failure check(ReportRecord report, ProgramShape model) {
        if (report.subset == null) {
            // A report restored from state written before subsets existed: an ε-t report.
            report.subset = new int[0];
        }
        PrivacyParameters config = model.config(report.configId);
        if (config == null) {
            return new Failure(
                    DeadLetterReason.UNKNOWN_PRIVACY_CONFIG,
                    "configId '"
                            + report.configId
                            + "' is not a privacy config of "
                            + report.appVersion);
        }
        Failure shuffle = checkShuffle(report, model.shuffleTerms(report.configId));
        if (shuffle != null) {
            return shuffle;
        }
        if (report.k != config.k()) {
            return new Failure(
                    DeadLetterReason.WRONG_TRACE_LENGTH,
                    "k = "
                            + report.k
                            + " but config '"
                            + report.configId
                            + "' has k = "
                            + config.k());
        }
        if (report.epsilon != 0
                && (Double.compare(report.epsilon, config.epsilon()) != 0
                        || report.t != config.t())) {
            // Same configId, other parameters: the model was republished after the device made
            // the report (or the device holds a stale copy); summed under these parameters, its
            // counts would bias the estimate.
            return new Failure(
                    DeadLetterReason.MODEL_CHANGED,
                    "randomized with ε = "
                            + report.epsilon
                            + ", t = "
                            + report.t
                            + " but config '"
                            + report.configId
                            + "' has ε = "
                            + config.epsilon()
                            + ", t = "
                            + config.t());
        }
        if (config.mode() == PrivacyMode.USER_LEVEL) {
            return checkUserLevel(report, model, config);
        }
        if (report.subset.length != 0) {
            return new Failure(
                    DeadLetterReason.INVALID,
                    "subset has "
                            + report.subset.length
                            + " entries but config '"
                            + report.configId
                            + "' is an epsilon-t configuration (subset must be empty)");
        }
        if (report.counts.length != model.methodCount()) {
            return new Failure(
                    DeadLetterReason.WRONG_VECTOR_LENGTH,
                    "counts has length "
                            + report.counts.length
                            + " but "
                            + report.appVersion
                            + " has |V| = "
                            + model.methodCount());
        }
        for (int v = 0; v < report.counts.length; v++) {
            int count = report.counts[v];
            if (count < 0 || count > report.k) {
                return new Failure(
                        DeadLetterReason.COUNT_OUT_OF_RANGE,
                        "counts[" + v + "] = " + count + " is outside [0, k = " + report.k + "]");
            }
        }
        return null;
    }

    /**
     * The shuffled mode: a report of a shuffled configuration counts only from a batch of at least
     * its minimum size, and a report from a batch only under a shuffled configuration. A report of
     * a shuffled configuration read straight from the reports topic would bypass the shuffler, and
     * with it the central guarantee its estimate states.
     *
     * @param terms the configuration's shuffle terms, null for a local-only configuration
     */
    static Failure checkShuffle(ReportRecord report, ShuffleTerms terms) {
        boolean fromBatch = report.batchId != null;
        if (!fromBatch && terms == null) {
            return null;
        }
        if (!fromBatch) {
            return new Failure(
                    DeadLetterReason.INVALID,
                    "config '"
                            + report.configId
                            + "' of "
                            + report.appVersion
                            + " is shuffled (batches of at least "
                            + terms.minBatchSize()
                            + " reports): its reports count only from the shuffler's batches, and"
                            + " this one came straight to the reports topic, bypassing the"
                            + " shuffler");
        }
        if (terms == null) {
            return new Failure(
                    DeadLetterReason.BATCH_TOO_SMALL,
                    "shuffled batch "
                            + report.batchId
                            + " of "
                            + report.batchSize
                            + " reports is for config '"
                            + report.configId
                            + "' of "
                            + report.appVersion
                            + ", which is not shuffled (local-only): it has no minimum batch size"
                            + " and states no central guarantee");
        }
        if (report.batchSize < terms.minBatchSize()) {
            return new Failure(
                    DeadLetterReason.BATCH_TOO_SMALL,
                    "shuffled batch "
                            + report.batchId
                            + " holds "
                            + report.batchSize
                            + " reports, below the minimum batch size "
                            + terms.minBatchSize()
                            + " of config '"
                            + report.configId
                            + "' of "
                            + report.appVersion);
        }
        return null;
    }

    /**
     * A user-level report: no counts, and a subset of exactly ω distinct method ids of [0, |V|) in
     * increasing order, ω the configuration's subset-selection size at this |V|.
     */
    private static Failure checkUserLevel(
            ReportRecord report, ProgramShape model, PrivacyParameters config) {
        SubsetSelection oracle = model.oracle(report.configId);
        if (oracle == null) {
            return new Failure(
                    DeadLetterReason.INVALID,
                    "config '"
                            + report.configId
                            + "' is user-level but "
                            + report.appVersion
                            + " has |V| = "
                            + model.methodCount()
                            + " < 2");
        }
        if (report.counts.length != 0) {
            return new Failure(
                    DeadLetterReason.WRONG_VECTOR_LENGTH,
                    "counts has length "
                            + report.counts.length
                            + " but config '"
                            + report.configId
                            + "' is user-level (counts must be empty, the subset is the report)");
        }
        if (report.subset.length != oracle.subsetSize()) {
            return new Failure(
                    DeadLetterReason.WRONG_VECTOR_LENGTH,
                    "subset has "
                            + report.subset.length
                            + " entries but config '"
                            + report.configId
                            + "' at |V| = "
                            + model.methodCount()
                            + " reports omega = "
                            + oracle.subsetSize());
        }
        int previous = -1;
        for (int i = 0; i < report.subset.length; i++) {
            int id = report.subset[i];
            if (id < 0 || id >= model.methodCount()) {
                return new Failure(
                        DeadLetterReason.COUNT_OUT_OF_RANGE,
                        "subset["
                                + i
                                + "] = "
                                + id
                                + " is outside [0, |V| = "
                                + model.methodCount()
                                + ")");
            }
            if (id <= previous) {
                return new Failure(
                        DeadLetterReason.INVALID,
                        "subset must be strictly increasing, but subset["
                                + i
                                + "] = "
                                + id
                                + " follows "
                                + previous);
            }
            previous = id;
        }
        return null;
    }

    /**
     * What a valid report adds to its window's sum: its counts, or for a user-level report the 0/1
     * vector of its subset over |V| methods (Y(v) = 1[v in Z], summed like counts).
     */
    public static int[] summand(ReportRecord report, int methodCount) {
        if (report.subset == null || report.subset.length == 0) {
            return report.counts;
        }
        int[] indicators = new int[methodCount];
        for (int id : report.subset) {
            indicators[id] = 1;
        }
        return indicators;
    }
}
