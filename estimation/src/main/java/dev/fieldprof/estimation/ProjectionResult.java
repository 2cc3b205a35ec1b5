package dev.fieldprof.estimation;

/**
 * The consistent estimate g* of one window and its KKT certificate (docs/architecture.md, "The
 * constraint projection, fast"). The certificate is for {@code min ½Σ(x − ĝ)²} with stationarity
 * {@code x(v) − ĝ(v) + λ − μ(v) + Σ_{p: left=v} π(p) − Σ_{p: right=v} π(p) = 0}, {@code μ, π >= 0},
 * and complementary slackness.
 *
 * @param solution g*: nonnegative, sums to 1, ordered by the pairs
 * @param isotonic iso(ĝ), the isotonic fit before the simplex projection
 * @param lambda the multiplier of {@code Σx = 1} (the simplex shift)
 * @param pairMultipliers π(p) per pair
 * @param boundMultipliers μ(v) per method, of {@code x(v) >= 0}
 * @param objective {@code Σ(g*(v) − ĝ(v))²}
 * @param kktResidual the largest violation of stationarity, feasibility, dual feasibility and
 *     complementary slackness of the certificate
 * @param maxViolation the largest {@code max(0, g*(left) − g*(right))} over the pairs
 * @param rounds min-cut rounds of the isotonic regression
 * @param millis wall time of the solve
 */
public record ProjectionResult(
        double[] solution,
        double[] isotonic,
        double lambda,
        double[] pairMultipliers,
        double[] boundMultipliers,
        double objective,
        double kktResidual,
        double maxViolation,
        int rounds,
        double millis) {}
