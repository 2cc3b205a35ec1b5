package dev.fieldprof.cli.privacy;

import dev.fieldprof.ldp.ExactPrivacyAudit;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SubsetSelection;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof privacy audit}: prints Pr[R(F) = Z] exactly for every F of the domain, the
 * largest probability ratio within trace distance t and the bound e^ε; with {@code --mode
 * user-level}, the subset-selection oracle's worst-case ratio over all outputs and input pairs,
 * computed exactly. The logic is {@link ExactPrivacyAudit}.
 */
@Command(
        name = "audit",
        mixinStandardHelpOptions = true,
        description =
                "Exact privacy audit. epsilon-t mode: Pr[R(F) = Z] for every F of d events summing"
                        + " to k (d = the length of --output), then max-ratio-within-t and bound"
                        + " e^epsilon. user-level mode: the worst-case ratio Pr[Z|x]/Pr[Z|x'] of"
                        + " the subset-selection oracle over --methods values, exactly, and the"
                        + " bound e^epsilon.")
public final class PrivacyAuditCommand implements Callable<Integer> {

    @Option(
            names = "--epsilon",
            required = true,
            paramLabel = "E",
            description = "Privacy loss epsilon > 0: a number or ln(x), e.g. ln(9).")
    String epsilon;

    @Option(
            names = "--mode",
            defaultValue = "epsilon-t",
            paramLabel = "MODE",
            description = "epsilon-t (default) or user-level.")
    String mode;

    @Option(
            names = "--methods",
            paramLabel = "D",
            description = "user-level: |V|, the number of methods, >= 2.")
    Integer methods;

    @Option(
            names = "--omega",
            paramLabel = "W",
            description =
                    "user-level: the subset size, in [1, D-1] (default: the variance-optimal one).")
    Integer omega;

    @Option(names = "--t", paramLabel = "T", description = "Distance threshold, 1 <= t <= k.")
    Integer t;

    @Option(
            names = "--k",
            paramLabel = "K",
            description = "Trace length (events per report), k >= 1.")
    Integer k;

    @Option(
            names = "--output",
            split = ",",
            paramLabel = "z1,...,zd",
            description = "The randomized output Z, each entry in [0, k].")
    int[] output;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        double parsedEpsilon;
        try {
            parsedEpsilon = PrivacyParameters.parseEpsilon(epsilon);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--" + e.getMessage());
        }
        if ("user-level".equals(mode)) {
            return auditUserLevel(parsedEpsilon);
        }
        if (!"epsilon-t".equals(mode)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--mode must be epsilon-t or user-level, got " + mode);
        }
        if (t == null || k == null || output == null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "epsilon-t mode needs --t, --k and --output");
        }
        if (k < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--k must be >= 1, got " + k);
        }
        if (t < 1 || t > k) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--t must be in [1, k=" + k + "], got " + t);
        }
        for (int z : output) {
            if (z < 0 || z > k) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--output entries must be in [0, k=" + k + "], got " + z);
            }
        }
        PrivacyParameters parameters;
        ExactPrivacyAudit.Result result;
        try {
            parameters = new PrivacyParameters(parsedEpsilon, t, k);
            result = new ExactPrivacyAudit(parameters).audit(output);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String line : result.format()) {
            out.println(line);
        }
        out.flush();
        return 0;
    }

    private int auditUserLevel(double parsedEpsilon) {
        if (methods == null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "user-level mode needs --methods D (|V| >= 2)");
        }
        ExactPrivacyAudit.UserLevelResult result;
        try {
            SubsetSelection oracle =
                    omega == null
                            ? new SubsetSelection(methods, parsedEpsilon)
                            : new SubsetSelection(methods, parsedEpsilon, omega);
            result = ExactPrivacyAudit.auditUserLevel(oracle);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String line : result.format()) {
            out.println(line);
        }
        out.flush();
        return 0;
    }
}
