package dev.fieldprof.jobs.estimation;

import dev.fieldprof.schemas.PrivacyConfig;
import java.io.Serializable;

/**
 * The parameters of the ε-t randomizer (DESIGN.md "Privacy"): privacy loss ε, distance threshold t,
 * trace length k, and the derived {@code a = e^(ε/(2t))} and {@code p = a / (1 + a)}.
 *
 * @param epsilon privacy loss, finite and {@code > 0}
 * @param t distance threshold, {@code >= 1}
 * @param k trace length (events per report), {@code >= 1}
 */
public record PrivacyParameters(double epsilon, int t, int k) implements Serializable {

    public PrivacyParameters {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be finite and > 0, got " + epsilon);
        }
        if (t < 1) {
            throw new IllegalArgumentException("t must be >= 1, got " + t);
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
    }

    /** The parameters of a published privacy configuration. */
    public static PrivacyParameters of(PrivacyConfig config) {
        return new PrivacyParameters(config.getEpsilon(), config.getT(), config.getK());
    }

    /** {@code a = e^(ε/(2t))}, the odds that the randomizer keeps an event as it is. */
    public double a() {
        return Math.exp(epsilon / (2.0 * t));
    }

    /** {@code p = a / (1 + a)}, the probability that an event of v is counted for v. */
    public double p() {
        double a = a();
        return a / (1.0 + a);
    }
}
