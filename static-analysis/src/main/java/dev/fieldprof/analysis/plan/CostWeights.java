package dev.fieldprof.analysis.plan;

import java.util.Locale;

/**
 * α, β, γ of {@code cost(D) = α·BALANCE + β·PACKING + γ·ALLUSED} (Section 4.3 of probe
 * distribution, docs/references.md), each a real number in [0, 1].
 */
public record CostWeights(double alpha, double beta, double gamma) {

    /** Table 1 of probe distribution: Balanced. */
    public static final CostWeights BALANCED = new CostWeights(0.5, 0, 0.5);

    /** Table 1 of probe distribution: Packed. */
    public static final CostWeights PACKED = new CostWeights(0, 0.5, 0.5);

    /** Table 1 of probe distribution: Balanced-Packed. */
    public static final CostWeights BALANCED_PACKED = new CostWeights(0.4, 0.2, 0.4);

    public CostWeights {
        check("alpha", alpha);
        check("beta", beta);
        check("gamma", gamma);
    }

    private static void check(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], was " + value);
        }
    }

    /** Parses {@code "α,β,γ"}, e.g. {@code "0.4,0.2,0.4"}. */
    public static CostWeights parse(String text) {
        String[] parts = text.split(",", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException(
                    "weights must be three numbers alpha,beta,gamma, was '" + text + "'");
        }
        double[] values = new double[3];
        for (int i = 0; i < 3; i++) {
            try {
                values[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "weights must be three numbers alpha,beta,gamma, was '" + text + "'");
            }
        }
        return new CostWeights(values[0], values[1], values[2]);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s,%s,%s", alpha, beta, gamma);
    }
}
