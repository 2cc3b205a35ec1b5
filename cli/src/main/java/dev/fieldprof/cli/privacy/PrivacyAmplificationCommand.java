package dev.fieldprof.cli.privacy;

import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.ShuffleAmplification;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof privacy amplification}: the central (ε, δ) the analyst holds for a shuffled
 * batch of n reports, each ε₀-LDP ({@link ShuffleAmplification}). The last line is {@code central
 * epsilon <value>}, with the closed form beside it where that applies; figures are rounded up to
 * four significant digits, so a printed bound is still a bound.
 */
@Command(
        name = "amplification",
        mixinStandardHelpOptions = true,
        description = {
            "The central (epsilon, delta) of a shuffled batch of --reports reports, each"
                    + " --epsilon0-LDP, when the shuffler does not collude with the analyst: an"
                    + " upper bound computed numerically by the clone reduction of amplification by"
                    + " shuffling, and its closed form where that applies (epsilon0 <="
                    + " ln(n/(16 ln(2/delta)))).",
            "Per report: one report per device per batch makes it per device. Figures are rounded"
                    + " up."
        })
public final class PrivacyAmplificationCommand implements Callable<Integer> {
    private static final long MAX_REPORTS = 1_000_000_000L;

    @Option(
            names = "--reports",
            required = true,
            paramLabel = "N",
            description = "Reports in one shuffled batch, in [1, 10^9].")
    long reports;

    @Option(
            names = "--epsilon0",
            required = true,
            paramLabel = "E",
            description = "Each report's local epsilon in (0, 50]: a number or ln(x), e.g. ln(9).")
    String epsilon0;

    @Option(
            names = "--delta",
            defaultValue = "1e-6",
            paramLabel = "D",
            description = "The central delta, in (0, 1) (default: ${DEFAULT-VALUE}).")
    double delta;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (reports < 1 || reports > MAX_REPORTS) {
            throw usage("--reports must be in [1, 10^9], got " + reports);
        }
        double local;
        try {
            local = PrivacyParameters.parseEpsilon(epsilon0);
        } catch (IllegalArgumentException e) {
            throw usage("--epsilon0: " + e.getMessage());
        }
        if (!(local > 0 && local <= ShuffleAmplification.MAX_EPSILON0)) {
            throw usage("--epsilon0 must be in (0, 50], got " + epsilon0);
        }
        if (!(delta > 0 && delta < 1)) {
            throw usage("--delta must be in (0, 1), got " + delta);
        }
        ShuffleAmplification batch = new ShuffleAmplification(reports, local);
        OptionalDouble closed = batch.closedForm(delta);
        double central = batch.centralEpsilon(delta);

        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                Locale.ROOT,
                "batch of %d reports, each %s-LDP; delta %s%n",
                reports,
                new BigDecimal(local)
                        .round(new MathContext(6, RoundingMode.HALF_EVEN))
                        .stripTrailingZeros()
                        .toPlainString(),
                plain(delta));
        out.println(
                "holds only if the shuffler does not collude with the analyst (else epsilon0 per"
                        + " report); per report, so per device with one report per device per"
                        + " batch");
        double limit = ShuffleAmplification.closedFormLimit(reports, delta);
        if (closed.isPresent()) {
            out.printf(
                    Locale.ROOT,
                    "closed form: epsilon <= %s (holds for epsilon0 <= %s)%n",
                    up(closed.getAsDouble()),
                    down(limit));
            out.printf(
                    Locale.ROOT,
                    "central epsilon %s (closed form %s)%n",
                    up(central),
                    up(closed.getAsDouble()));
        } else {
            out.printf(
                    Locale.ROOT,
                    "closed form: does not apply (it holds for epsilon0 <= ln(n/(16 ln(2/delta)))"
                            + " = %s)%n",
                    down(limit));
            out.printf(Locale.ROOT, "central epsilon %s%n", up(central));
        }
        out.flush();
        return 0;
    }

    /** Four significant digits, rounded up: a bound printed stays a bound. */
    static String up(double value) {
        return new BigDecimal(value)
                .round(new MathContext(4, RoundingMode.CEILING))
                .stripTrailingZeros()
                .toPlainString();
    }

    private static String down(double value) {
        return new BigDecimal(value)
                .round(new MathContext(4, RoundingMode.FLOOR))
                .stripTrailingZeros()
                .toPlainString();
    }

    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toString();
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
