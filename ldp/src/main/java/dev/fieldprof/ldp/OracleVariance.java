package dev.fieldprof.ldp;

/**
 * Closed-form variances of ε-LDP frequency oracles over d values, per report, for the estimate of
 * one value's frequency when that value has frequency 0 (the term that dominates for all but the
 * few hot methods; Wang, Blocki, Li and Jha, "Locally differentially private protocols for
 * frequency estimation", USENIX Security 2017, section 4: a "pure" protocol with support
 * probabilities p*, q* has Var = q*(1 − q*)/(p* − q*)²). They decide which oracle the user-level
 * mode uses ({@link SubsetSelection}) and how many events a report carries. Stateless.
 */
public final class OracleVariance {
    private OracleVariance() {}

    /** The pure-protocol variance q(1 − q)/(p − q)² per report. */
    public static double pure(double p, double q) {
        return q * (1 - q) / ((p - q) * (p - q));
    }

    /**
     * ω-subset selection with the ideal P = ωe^ε/(ωe^ε + d − ω): p = P, q = (ω − P)/(d − 1).
     *
     * @param expEpsilon e^ε
     */
    public static double subsetSelection(int d, double expEpsilon, int omega) {
        double p = omega * expEpsilon / (omega * expEpsilon + d - omega);
        double q = (omega - p) / (d - 1);
        return pure(p, q);
    }

    /** Subset selection at its best ω ({@link SubsetSelection#optimalSubsetSize}). */
    public static double subsetSelection(int d, double epsilon) {
        return subsetSelection(d, Math.exp(epsilon), SubsetSelection.optimalSubsetSize(d, epsilon));
    }

    /**
     * Optimal local hashing: hash range g = max(2, round(e^ε + 1)), p* = e^ε/(e^ε + g − 1), q* =
     * 1/g, so Var = (e^ε + g − 1)²/((g − 1)(e^ε − 1)²). Independent of d.
     */
    public static double optimalLocalHashing(double epsilon) {
        double e = Math.exp(epsilon);
        double g = Math.max(2, Math.rint(e + 1));
        return pure(e / (e + g - 1), 1 / g);
    }

    /**
     * Hadamard response with one block (Acharya, Sun and Zhang 2019): the output is a column y of a
     * K×K Hadamard matrix, K ≥ d + 1, drawn from the K/2 columns where row x is +1 with probability
     * e^ε/(e^ε + 1); the support of v is those columns, so p* = e^ε/(e^ε + 1), q* = 1/2 and Var =
     * (e^ε + 1)²/(e^ε − 1)². Independent of d.
     */
    public static double hadamardResponse(double epsilon) {
        double e = Math.exp(epsilon);
        return pure(e / (e + 1), 0.5);
    }

    /**
     * The variance of one device's share estimate when a report carries s events of its epoch, each
     * through subset selection at ε/s (sequential composition keeps the report ε-LDP), for a method
     * of share f on the device: (1/s)·(V0 + (1 − 2q)f/(p − q) − f²), V0 the share-0 variance at
     * ε/s. This is the variance with the s events drawn with replacement; drawing them without
     * replacement only lowers the f-terms, which does not change the comparison below.
     */
    public static double eventsPerReport(int d, double epsilon, int s, double f) {
        double eps = epsilon / s;
        double e = Math.exp(eps);
        int omega = SubsetSelection.optimalSubsetSize(d, eps);
        double p = omega * e / (omega * e + d - omega);
        double q = (omega - p) / (d - 1);
        return (pure(p, q) + (1 - 2 * q) * f / (p - q) - f * f) / s;
    }
}
