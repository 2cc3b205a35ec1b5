package dev.fieldprof.ldp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Exact audit of the ε-t guarantee on a small domain, with no sampling: for one output Z it
 * computes Pr[R(F) = Z] for every frequency vector F of d events summing to k, and the largest
 * probability ratio over pairs of vectors at trace distance at most t (Definition 3.1 of frequency
 * profiling, docs/references.md; its section 3.3 works the case d = 2, k = 5, ε = ln 9 by hand).
 * Trace distance between F and F' is the least number of positions in which traces with these
 * histograms differ: Σ_v max(F(v) − F'(v), 0).
 */
public final class ExactPrivacyAudit {
    /** Largest domain audited: the pair scan is quadratic in it. */
    public static final int MAX_DOMAIN_SIZE = 20_000;

    private final PrivacyParameters parameters;

    /**
     * Creates an audit of the randomizer with the given parameters. Immutable and thread-safe.
     *
     * <pre>{@code
     * ExactPrivacyAudit.Result result =
     *         new ExactPrivacyAudit(new PrivacyParameters(Math.log(9), 1, 5)).audit(new int[] {4, 2});
     * }</pre>
     */
    public ExactPrivacyAudit(PrivacyParameters parameters) {
        if (parameters == null) {
            throw new IllegalArgumentException("parameters must not be null");
        }
        this.parameters = parameters;
    }

    /** One frequency vector and the exact probability that the randomizer outputs Z from it. */
    public record Line(int[] frequencies, double probability) {}

    /**
     * The audit's outcome: every F with Pr[R(F) = Z] in descending lexicographic order of F, the
     * largest ratio within distance t, and the guaranteed bound e^ε.
     */
    public record Result(List<Line> lines, double maxRatioWithinT, double bound) {
        /** The text the CLI prints: one line per F, then the ratio and the bound. */
        public List<String> format() {
            List<String> out = new ArrayList<>(lines.size() + 2);
            for (Line line : lines) {
                StringBuilder text = new StringBuilder();
                for (int i = 0; i < line.frequencies().length; i++) {
                    if (i > 0) {
                        text.append(',');
                    }
                    text.append(line.frequencies()[i]);
                }
                text.append(' ').append(String.format(Locale.ROOT, "%.6f", line.probability()));
                out.add(text.toString());
            }
            out.add(String.format(Locale.ROOT, "max-ratio-within-t %.6f", maxRatioWithinT));
            out.add(String.format(Locale.ROOT, "bound %.6f", bound));
            return out;
        }
    }

    /**
     * Audits one output vector.
     *
     * @param output Z: d >= 1 entries, each in [0, k]; the domain C(k+d−1, d−1) must not exceed
     *     {@link #MAX_DOMAIN_SIZE}
     */
    public Result audit(int[] output) {
        int k = parameters.k();
        int d = output.length;
        if (d < 1) {
            throw new IllegalArgumentException("output must have at least one entry");
        }
        for (int i = 0; i < d; i++) {
            if (output[i] < 0 || output[i] > k) {
                throw new IllegalArgumentException(
                        "output entries must be in [0, k=" + k + "], got " + output[i]);
            }
        }
        double domainSize = domainSize(d, k);
        if (domainSize > MAX_DOMAIN_SIZE) {
            throw new IllegalArgumentException(
                    String.format(
                            Locale.ROOT,
                            "domain size C(k+d-1, d-1) must be <= %d, got %.0f for d=%d, k=%d",
                            MAX_DOMAIN_SIZE,
                            domainSize,
                            d,
                            k));
        }
        double[][] pmf = new double[d][k + 1];
        for (int v = 0; v < d; v++) {
            for (int f = 0; f <= k; f++) {
                pmf[v][f] = LocalRandomizer.countPmf(parameters, f, output[v]);
            }
        }
        List<int[]> domain = new ArrayList<>();
        enumerateDescending(new int[d], 0, k, domain);
        List<Line> lines = new ArrayList<>(domain.size());
        double[] probabilities = new double[domain.size()];
        for (int i = 0; i < domain.size(); i++) {
            int[] f = domain.get(i);
            double probability = 1;
            for (int v = 0; v < d; v++) {
                probability *= pmf[v][f[v]];
            }
            probabilities[i] = probability;
            lines.add(new Line(f, probability));
        }
        double maxRatio = 1;
        for (int i = 0; i < domain.size(); i++) {
            for (int j = 0; j < domain.size(); j++) {
                if (probabilities[i] > maxRatio * probabilities[j]
                        && traceDistance(domain.get(i), domain.get(j)) <= parameters.t()) {
                    maxRatio = probabilities[i] / probabilities[j];
                }
            }
        }
        return new Result(Collections.unmodifiableList(lines), maxRatio, parameters.bound());
    }

    /**
     * The user-level mode's audit: the worst-case ratio max over outputs Z and inputs x, x' of Pr[Z
     * | x] / Pr[Z | x'] of the {@link SubsetSelection} oracle, exactly (the implemented
     * probabilities are rationals, see {@link SubsetSelection}).
     *
     * @param exhaustive whether every output and input pair was enumerated (C(d, ω) <= {@link
     *     #MAX_DOMAIN_SIZE}); otherwise the closed form T(d − ω)/((2^53 − T)ω) alone, which the
     *     enumeration equals wherever it runs
     * @param maxRatio the worst-case ratio, rounded down to 30 significant digits
     * @param bound e^ε
     */
    public record UserLevelResult(
            SubsetSelection oracle,
            boolean exhaustive,
            java.math.BigDecimal maxRatio,
            java.math.BigDecimal closedFormRatio,
            double bound) {
        /** The text the CLI prints. */
        public List<String> format() {
            List<String> out = new ArrayList<>();
            out.add("mode user-level");
            out.add(
                    String.format(
                            Locale.ROOT,
                            "oracle subset-selection d=%d omega=%d epsilon=%.6f",
                            oracle.domainSize(),
                            oracle.subsetSize(),
                            oracle.epsilon()));
            out.add(
                    "inclusion-probability "
                            + oracle.inclusionThreshold()
                            + "/2^53 = "
                            + new java.math.BigDecimal(oracle.p()).toPlainString());
            out.add(
                    "max-ratio "
                            + maxRatio.toPlainString()
                            + (exhaustive
                                    ? " (every output and input pair)"
                                    : " (closed form T(d-omega)/((2^53-T)omega))"));
            out.add(String.format(Locale.ROOT, "bound %.15f", bound));
            out.add(
                    "max-ratio <= bound: "
                            + (maxRatio.compareTo(new java.math.BigDecimal(bound)) <= 0));
            return out;
        }
    }

    /**
     * Audits the user-level oracle: exhaustively when C(d, ω) <= {@link #MAX_DOMAIN_SIZE} (every
     * ω-subset Z and every pair of inputs, probabilities as exact decimals), else in closed form.
     */
    public static UserLevelResult auditUserLevel(SubsetSelection oracle) {
        java.math.MathContext precision =
                new java.math.MathContext(30, java.math.RoundingMode.FLOOR);
        java.math.BigDecimal closedForm = oracle.worstCaseRatio(precision);
        int d = oracle.domainSize();
        int omega = oracle.subsetSize();
        boolean exhaustive =
                SubsetSelection.binomial(d, omega)
                                .compareTo(java.math.BigInteger.valueOf(MAX_DOMAIN_SIZE))
                        <= 0;
        java.math.BigDecimal max = closedForm;
        if (exhaustive) {
            java.math.MathContext exact = new java.math.MathContext(60);
            max = java.math.BigDecimal.ZERO;
            int[] subset = new int[omega];
            for (int i = 0; i < omega; i++) {
                subset[i] = i;
            }
            while (true) {
                java.math.BigDecimal largest = null;
                java.math.BigDecimal smallest = null;
                for (int x = 0; x < d; x++) {
                    java.math.BigDecimal pr = oracle.probability(subset, x, exact);
                    largest = largest == null || pr.compareTo(largest) > 0 ? pr : largest;
                    smallest = smallest == null || pr.compareTo(smallest) < 0 ? pr : smallest;
                }
                java.math.BigDecimal ratio = largest.divide(smallest, precision);
                max = ratio.compareTo(max) > 0 ? ratio : max;
                int i = omega - 1;
                while (i >= 0 && subset[i] == d - omega + i) {
                    i--;
                }
                if (i < 0) {
                    break;
                }
                subset[i]++;
                for (int j = i + 1; j < omega; j++) {
                    subset[j] = subset[j - 1] + 1;
                }
            }
        }
        return new UserLevelResult(oracle, exhaustive, max, closedForm, Math.exp(oracle.epsilon()));
    }

    /** Least number of trace positions in which traces with histograms f and g differ. */
    public static int traceDistance(int[] f, int[] g) {
        int distance = 0;
        for (int v = 0; v < f.length; v++) {
            distance += Math.max(f[v] - g[v], 0);
        }
        return distance;
    }

    private static double domainSize(int d, int k) {
        double size = 1;
        for (int i = 1; i < d; i++) {
            size = size * (k + i) / i;
        }
        return Math.rint(size);
    }

    private static void enumerateDescending(int[] current, int index, int left, List<int[]> out) {
        if (index == current.length - 1) {
            current[index] = left;
            out.add(current.clone());
            return;
        }
        for (int value = left; value >= 0; value--) {
            current[index] = value;
            enumerateDescending(current, index + 1, left - value, out);
        }
    }
}
