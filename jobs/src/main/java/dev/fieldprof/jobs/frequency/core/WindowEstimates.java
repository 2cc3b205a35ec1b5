package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.estimation.FrequencyEstimate;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.FrequencyMetrics;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.estimation.ProjectionResult;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.DoubleListView;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.SolveStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the EstimateWindow of one window sum: ĝ with a standard error per method (and the common
 * one older readers know), one constraint projection for g*, the hot set and the top methods
 * (docs/architecture.md, "The estimator" and "The constraint projection, fast"). Flink-free;
 * thread-safe.
 */
public final class WindowEstimates {
    private final double hotThreshold;
    private final int top;

    /**
     * @param hotThreshold ℓ in [0, 1]
     * @param top how many methods to rank, {@code >= 0}
     */
    public WindowEstimates(double hotThreshold, int top) {
        if (!(hotThreshold >= 0 && hotThreshold <= 1)) {
            throw new IllegalArgumentException(
                    "hot threshold must be in [0, 1], got " + hotThreshold);
        }
        if (top < 0) {
            throw new IllegalArgumentException("top must be >= 0, got " + top);
        }
        this.hotThreshold = hotThreshold;
        this.top = top;
    }

    /**
     * The estimate of {@code sum}, made with the program model and configuration it was validated
     * against.
     *
     * @throws IllegalArgumentException when the configuration is unknown to the model, the sum's
     *     width is not |V|, or the sum holds no report
     */
    public EstimateWindow estimate(
            ProgramIndex model,
            String configId,
            long windowStart,
            long windowEnd,
            PartialSum sum,
            boolean cumulative) {
        PrivacyParameters privacy = model.config(configId);
        if (privacy == null) {
            throw new IllegalArgumentException(
                    "no privacy config '" + configId + "' in " + model.appVersion());
        }
        if (sum.width() != model.methodCount()) {
            throw new IllegalArgumentException(
                    "sum has width " + sum.width() + " but |V| = " + model.methodCount());
        }
        FrequencyEstimate estimate = new FrequencyEstimator(privacy).estimate(sum);
        double[] normalized = estimate.normalized();
        ProjectionResult projection = model.projection().project(normalized);
        double[] consistent = projection.solution();

        List<Integer> hot = new ArrayList<>();
        for (int v : FrequencyMetrics.hotSet(consistent, hotThreshold)) {
            hot.add(v);
        }
        List<RankedMethod> ranked = new ArrayList<>();
        for (int v : FrequencyMetrics.top(consistent, top)) {
            ranked.add(
                    RankedMethod.newBuilder()
                            .setMethodId(v)
                            .setSignature(model.signature(v))
                            .setShare(consistent[v])
                            .setNormalized(normalized[v])
                            .build());
        }
        // The three per-method arrays go in as views, not copies: RecordCodec writes them
        // straight from the arrays, where boxed lists were 3|V| Doubles made to be unboxed again.
        return EstimateWindow.newBuilder()
                .setAppVersion(model.appVersion())
                .setConfigId(configId)
                .setWindowStartMillis(Instant.ofEpochMilli(windowStart))
                .setWindowEndMillis(Instant.ofEpochMilli(windowEnd))
                .setCumulative(cumulative)
                .setReports(estimate.reports())
                .setK(privacy.k())
                .setEpsilon(privacy.epsilon())
                .setT(privacy.t())
                .setMode(privacy.mode())
                .setNormalized(DoubleListView.of(normalized))
                .setStandardError(estimate.standardError())
                .setStandardErrors(DoubleListView.of(estimate.standardErrors()))
                .setConsistent(DoubleListView.of(consistent))
                .setHotThreshold(hotThreshold)
                .setHotMethods(hot)
                .setTop(ranked)
                .setSolve(
                        SolveStats.newBuilder()
                                .setMillis(projection.millis())
                                .setKktResidual(projection.kktResidual())
                                .setRounds(projection.rounds())
                                .setMaxViolation(projection.maxViolation())
                                .build())
                .setEmittedAtMillis(Instant.now())
                .setModelGeneration(model.shape().generation())
                .build();
    }
}
