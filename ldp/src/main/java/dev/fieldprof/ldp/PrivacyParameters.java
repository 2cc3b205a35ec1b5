package dev.fieldprof.ldp;

import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parameters of a privacy configuration. In {@link PrivacyMode#EPSILON_T} mode those of the ε-t
 * randomizer (frequency profiling section 4.1, see docs/references.md; docs/architecture.md, "The
 * privacy contract"): privacy loss ε per t changed events, distance threshold t and trace length k,
 * with the derived a = e^(ε/(2t)) and p = a/(1+a). In {@link PrivacyMode#USER_LEVEL} mode one
 * report protects the device's whole epoch at ε: it carries k = 1 event sampled uniformly from the
 * epoch through the {@link SubsetSelection} oracle at ε (t = 1). One event at ε rather than s
 * events at ε/s each (sequential composition): the expected squared error summed over V ({@link
 * OracleVariance#eventsPerReport} over all methods) is smallest at s = 1 at every |V| (200 .. 5000)
 * and ε (ln 3 .. 8) of fieldprof's range, by a factor of 2 or more against s = 2 ({@code
 * OracleVarianceTest}), so the mode fixes k = 1. Only a hot method's own variance (share >= 0.1 at
 * ε >= 4) would be lower with s = 2 to 4. Immutable and thread-safe. The one definition devices
 * randomize with and the jobs estimate with: the formulas are the contract between them.
 */
public final class PrivacyParameters implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Pattern LN = Pattern.compile("ln\\((.+)\\)");

    private final PrivacyMode mode;
    private final double epsilon;
    private final int t;
    private final int k;
    private final double a;
    private final double p;

    /**
     * Validates and derives the randomizer's parameters.
     *
     * <pre>{@code
     * PrivacyParameters params = new PrivacyParameters(Math.log(9), 1, 5); // p = 0.75
     * }</pre>
     *
     * @param epsilon privacy loss, finite and > 0
     * @param t distance threshold, 1 <= t <= k
     * @param k trace length (events per report), k >= 1
     */
    public PrivacyParameters(double epsilon, int t, int k) {
        this(PrivacyMode.EPSILON_T, epsilon, t, k);
    }

    /**
     * Validates the parameters of either mode.
     *
     * <pre>{@code
     * PrivacyParameters userLevel = new PrivacyParameters(PrivacyMode.USER_LEVEL, Math.log(3), 1, 1);
     * }</pre>
     *
     * @param mode EPSILON_T: as {@link #PrivacyParameters(double, int, int)}; USER_LEVEL: t = k = 1
     *     and ε in [{@link #MIN_USER_LEVEL_EPSILON}, {@link #MAX_USER_LEVEL_EPSILON}]
     */
    public PrivacyParameters(PrivacyMode mode, double epsilon, int t, int k) {
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null");
        }
        this.mode = mode;
        if (mode == PrivacyMode.USER_LEVEL) {
            if (!(epsilon >= MIN_USER_LEVEL_EPSILON && epsilon <= MAX_USER_LEVEL_EPSILON)) {
                throw new IllegalArgumentException(
                        "epsilon must be in ["
                                + MIN_USER_LEVEL_EPSILON
                                + ", "
                                + MAX_USER_LEVEL_EPSILON
                                + "] in USER_LEVEL mode, got "
                                + epsilon);
            }
            if (t != 1 || k != 1) {
                throw new IllegalArgumentException(
                        "USER_LEVEL mode reports one event per epoch: t and k must be 1, got t="
                                + t
                                + ", k="
                                + k);
            }
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be finite and > 0, got " + epsilon);
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        if (t < 1 || t > k) {
            throw new IllegalArgumentException("t must be in [1, k=" + k + "], got " + t);
        }
        double half = epsilon / (2.0 * t);
        if (half < MIN_EPSILON_PER_2T || half > MAX_EPSILON_PER_2T) {
            // Outside, a = e^(epsilon/2t) is 1 or p = a/(1+a) is 1 in doubles: the estimator
            // divides by a - 1 = 0, or the randomizer reports the counts unchanged.
            throw new IllegalArgumentException(
                    "epsilon/(2t) must be in ["
                            + MIN_EPSILON_PER_2T
                            + ", "
                            + MAX_EPSILON_PER_2T
                            + "] so that a = e^(epsilon/(2t)) > 1 and p = a/(1+a) < 1 hold in"
                            + " doubles, got epsilon="
                            + epsilon
                            + ", t="
                            + t);
        }
        this.epsilon = epsilon;
        this.t = t;
        this.k = k;
        this.a = Math.exp(half);
        this.p = a / (1 + a);
    }

    /**
     * Smallest ε/(2t): a - 1 = e^(ε/2t) - 1 still carries 7 significant digits, and the standard
     * error √(a/(nk))/(a−1) stays finite.
     */
    public static final double MIN_EPSILON_PER_2T = 1e-9;

    /** Largest ε/(2t): 1 − p = 1/(1 + e^30) ≈ 9.4e-14 is still a positive double. */
    public static final double MAX_EPSILON_PER_2T = 30;

    /**
     * Smallest ε of the user-level mode: below it p − q of {@link SubsetSelection} is too small for
     * its 2^-53 resolution to keep the estimator's divisor accurate.
     */
    public static final double MIN_USER_LEVEL_EPSILON = 1e-6;

    /** Largest ε of the user-level mode: 1 − P stays well above 2^-53 for any |V| >= 2. */
    public static final double MAX_USER_LEVEL_EPSILON = 30;

    /** The parameters of a privacy configuration published in a program model. */
    public static PrivacyParameters of(PrivacyConfig config) {
        PrivacyMode mode = config.getMode() == null ? PrivacyMode.EPSILON_T : config.getMode();
        return new PrivacyParameters(mode, config.getEpsilon(), config.getT(), config.getK());
    }

    public PrivacyMode mode() {
        return mode;
    }

    /**
     * The user-level ε of one report, what the ledger and the budget add up: ε·k/t in EPSILON_T
     * mode (the whole report's k events), ε in USER_LEVEL mode.
     */
    public double userLevelEpsilonPerReport() {
        return mode == PrivacyMode.USER_LEVEL ? epsilon : epsilon * k / t;
    }

    /**
     * Parses an ε given as a decimal number ({@code 2.1972}) or as a natural logarithm ({@code
     * ln(9)}).
     *
     * @throws IllegalArgumentException if the text is neither, naming the accepted forms
     */
    public static double parseEpsilon(String text) {
        if (text == null) {
            throw new IllegalArgumentException("epsilon must be a number or ln(x), got null");
        }
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        try {
            Matcher ln = LN.matcher(trimmed);
            if (ln.matches()) {
                double argument = Double.parseDouble(ln.group(1).trim());
                if (!(argument > 1) || Double.isInfinite(argument)) {
                    throw new IllegalArgumentException(
                            "epsilon = ln(x) needs a finite x > 1, got " + text);
                }
                return Math.log(argument);
            }
            return Double.parseDouble(trimmed);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "epsilon must be a number or ln(x), e.g. 2.2 or ln(9), got '" + text + "'");
        }
    }

    public double epsilon() {
        return epsilon;
    }

    public int t() {
        return t;
    }

    public int k() {
        return k;
    }

    /** a = e^(ε/(2t)). */
    public double a() {
        return a;
    }

    /**
     * p = a/(1+a): the probability that an observed event is kept (equation 1 of frequency
     * profiling, docs/references.md).
     */
    public double p() {
        return p;
    }

    /** The guaranteed bound e^ε on the probability ratio of traces within distance t. */
    public double bound() {
        return Math.exp(epsilon);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PrivacyParameters that
                && mode == that.mode
                && Double.compare(epsilon, that.epsilon) == 0
                && t == that.t
                && k == that.k;
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, epsilon, t, k);
    }

    @Override
    public String toString() {
        return "PrivacyParameters(mode="
                + mode
                + ", epsilon="
                + epsilon
                + ", t="
                + t
                + ", k="
                + k
                + ")";
    }
}
