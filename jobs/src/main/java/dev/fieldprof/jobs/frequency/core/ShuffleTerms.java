package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.schemas.ShufflerTerms;
import java.io.Serializable;

/**
 * What a configuration of the shuffled mode holds its batches to: the least batch size whose
 * reports count, and the δ of the central (ε, δ) its estimates state. A plain copy of the model's
 * {@link ShufflerTerms}, so that a {@link ProgramShape} stays Java-serializable.
 *
 * @param minBatchSize the least number of reports a batch must hold for its reports to count
 * @param delta the δ of the central guarantee, in (0, 1)
 */
public record ShuffleTerms(int minBatchSize, double delta) implements Serializable {
    /**
     * @throws IllegalArgumentException when the minimum is below 2 or δ is outside (0, 1): a model
     *     with such terms is refused, not read as local-only
     */
    public ShuffleTerms {
        if (minBatchSize < 2) {
            throw new IllegalArgumentException(
                    "shuffler minBatchSize must be >= 2, got " + minBatchSize);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("shuffler delta must be in (0, 1), got " + delta);
        }
    }

    /** The terms of a model's configuration, or null for a local-only one ({@code null} terms). */
    public static ShuffleTerms of(ShufflerTerms terms) {
        return terms == null ? null : new ShuffleTerms(terms.getMinBatchSize(), terms.getDelta());
    }
}
